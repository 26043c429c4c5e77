package patcherit_test

import (
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strings"

	apierrors "k8s.io/apimachinery/pkg/api/errors"

	v1 "github.com/statuspatch/statuspatch/internal/testapi/v1"
	"github.com/statuspatch/statuspatch/patcher"
)

// The calls of a WithNonStatusChangesUnsent schedule and their checks
// (TestNonStatusChangesUnsentSchedules).

const (
	ourFinalizer   = "j.test/fin"
	otherFinalizer = "other.test/keep"
)

// flush is one Flush and its checks.
func (u *unsentRun) flush(what string) {
	obj := u.p.Object()
	before := obj.DeepCopy()
	i := u.wire.mark(obj)
	err := u.p.Flush(ctx)
	xs := u.wire.since(i)
	u.record(xs)
	what = fmt.Sprintf("step %d: %s", u.n, what)
	stored := u.stored(what, err, xs, false)
	if stored != nil && jsonOf(stored.Status) != jsonOf(before.Status) {
		u.t.Fatalf("%s sent status %s, the status in memory was %s", what, jsonOf(stored.Status), jsonOf(before.Status))
	}
	switch {
	case err != nil:
		if jsonOf(obj) != jsonOf(before) {
			u.t.Fatalf("%s failed (%v) and changed the object:\n%s\nwas\n%s", what, err, jsonOf(obj), jsonOf(before))
		}
		u.failed(err)
	case stored != nil:
		u.baseRV = obj.ResourceVersion
	default:
		if len(xs) != 0 {
			u.t.Fatalf("%s had nothing to write and sent %d requests", what, len(xs))
		}
		base, known := u.versions[u.baseRV]
		if !known {
			return
		}
		if jsonOf(before.Status) != jsonOf(base.Status) {
			u.t.Fatalf("%s sent nothing with status %s in memory, the base's %s", what, jsonOf(before.Status), jsonOf(base.Status))
		}
		want := before
		if before.ResourceVersion == u.baseRV {
			want = base // the docs: back to the base
		}
		if jsonOf(obj) != jsonOf(want) {
			u.t.Fatalf("%s with nothing to write left\n%s\nwant\n%s", what, jsonOf(obj), jsonOf(want))
		}
	}
}

// retry is one Retry, its mutate changing the object in and outside
// status, and its checks.
func (u *unsentRun) retry() {
	obj := u.p.Object()
	i := u.wire.mark(obj)
	attempts := 0
	var last v1.WidgetStatus
	lastStart := i
	err := u.p.Retry(ctx, func(w *v1.Widget) error {
		attempts++
		lastStart = u.wire.mark(w)
		for range 1 + u.r.IntN(2) {
			u.outside(w)
		}
		if u.r.IntN(5) != 0 {
			u.statusChange(&w.Status)
		}
		last = *w.Status.DeepCopy()
		return nil
	})
	xs := u.wire.since(i)
	u.record(xs)
	what := fmt.Sprintf("step %d: Retry (%d attempts)", u.n, attempts)
	if errors.Is(err, patcher.ErrPendingChanges) && attempts == 0 && len(xs) == 0 {
		u.failed(err) // a status change a failed Flush left: documented
		return
	}
	stored := u.stored(what, err, xs, false)
	switch {
	case err != nil:
		u.failed(err)
	case stored != nil && u.beforeLast(xs, stored, lastStart-i):
		// A write of an earlier attempt that changed no status value (the
		// server's defaults undid it), settled not stored after its lost
		// answer: the last attempt decided again, on the re-read, and had
		// nothing to write.
		if jsonOf(obj.Status) != jsonOf(last) {
			u.t.Fatalf("%s: status in memory %s, mutate's last %s", what, jsonOf(obj.Status), jsonOf(last))
		}
		u.baseRV = obj.ResourceVersion
	case stored != nil:
		if jsonOf(stored.Status) != jsonOf(last) {
			u.t.Fatalf("%s sent status %s, mutate's last was %s", what, jsonOf(stored.Status), jsonOf(last))
		}
		u.baseRV = obj.ResourceVersion
	default:
		// Nothing written by the last attempt: its status is the base's,
		// the last read when an attempt conflicted.
		for _, x := range xs[lastStart-i:] {
			if x.statusPatch() {
				u.t.Fatalf("%s: nil after a status PATCH not stored: %s -> %d", what, x.Body, x.Code)
			}
		}
		baseRV := u.baseRV
		for _, x := range xs {
			if x.Method == http.MethodGet && x.Code == http.StatusOK {
				baseRV = decodeWidget(u.t, x.Answer).ResourceVersion
			}
		}
		if base, ok := u.versions[baseRV]; ok && jsonOf(last) != jsonOf(base.Status) {
			u.t.Fatalf("%s wrote nothing with status %s, the base's %s", what, jsonOf(last), jsonOf(base.Status))
		}
		if base, ok := u.versions[baseRV]; ok && obj.ResourceVersion == baseRV && jsonOf(obj) != jsonOf(base) {
			u.t.Fatalf("%s with nothing to write left\n%s\nwant the base\n%s", what, jsonOf(obj), jsonOf(base))
		}
		u.baseRV = baseRV
	}
}

// beforeLast reports whether stored, one of xs, comes before the last
// attempt's exchanges (from index last on) and changed no status value,
// and the last attempt sent no status PATCH.
func (u *unsentRun) beforeLast(xs []exchange, stored *exchange, last int) bool {
	at := -1
	for k := range xs {
		if &xs[k] == stored {
			at = k
		}
	}
	if at < 0 || at >= last || slices.ContainsFunc(xs[last:], exchange.statusPatch) {
		return false
	}
	before, ok := u.versions[stored.ObjRV]
	return ok && jsonOf(decodeWidget(u.t, stored.Answer).Status) == jsonOf(before.Status)
}

// finalizer adds or removes ourFinalizer with the patcher.
func (u *unsentRun) finalizer() {
	obj := u.p.Object()
	i := u.wire.mark(obj)
	add := u.r.IntN(2) == 0
	var wrote bool
	var err error
	if add {
		wrote, err = u.p.AddFinalizer(ctx, ourFinalizer)
	} else {
		wrote, err = u.p.RemoveFinalizer(ctx, ourFinalizer)
	}
	xs := u.wire.since(i)
	u.record(xs)
	what := fmt.Sprintf("step %d: finalizer (add %v)", u.n, add)
	var ok []exchange
	for _, x := range xs {
		if x.statusPatch() {
			u.t.Fatalf("%s sent a status PATCH %s", what, x.Body)
		}
		if werr := checkSentOnlyStatus(x, true); werr != nil {
			u.t.Fatalf("%s: %v", what, werr)
		}
		if x.Method == http.MethodPatch && x.Code == http.StatusOK {
			ok = append(ok, x)
		}
	}
	switch {
	case err != nil:
		if len(ok) != 0 {
			u.t.Fatalf("%s: %v after a 200", what, err)
		}
		// A new finalizer on a deleting object is refused by the server.
		if !apierrors.IsConflict(err) && !apierrors.IsNotFound(err) && (!add || !apierrors.IsInvalid(err) && !apierrors.IsForbidden(err)) {
			u.t.Fatalf("%s: %v", what, err)
		}
		u.failed(err)
	case wrote != (len(ok) == 1) || len(ok) > 1:
		u.t.Fatalf("%s: wrote %v with %d stored PATCHes", what, wrote, len(ok))
	case wrote:
		ans := decodeWidget(u.t, ok[0].Answer)
		if slices.Contains(ans.Finalizers, ourFinalizer) != add || obj.ResourceVersion != ans.ResourceVersion {
			u.t.Fatalf("%s: answer %v at %s, object at %s", what, ans.Finalizers, ans.ResourceVersion, obj.ResourceVersion)
		}
		u.baseRV = obj.ResourceVersion
		if ans.DeletionTimestamp != nil && len(ans.Finalizers) == 0 {
			u.gone = true
		}
	default:
		u.baseRV = obj.ResourceVersion
	}
}

// stored checks the exchanges of a Flush or Retry that returned err and
// returns the exchange that stored its status, nil when none did:
// properties 1 to 3.
func (u *unsentRun) stored(what string, err error, xs []exchange, finalizers bool) *exchange {
	// The status PATCHes answered 200: those that made a version, and
	// the last one. A 200 at the resourceVersion it was locked at made
	// none: a write the server's defaults undid (after a lost answer the
	// settle finds the base, and Retry decides again or Flush sends it
	// again).
	var made []int
	lastPatch, lost := -1, false
	for i, x := range xs {
		if werr := checkSentOnlyStatus(x, finalizers); werr != nil {
			u.t.Fatalf("%s: %v", what, werr)
		}
		lost = lost || x.Lost
		if !x.statusPatch() {
			continue
		}
		lastPatch = i
		if x.Code == http.StatusOK && decodeWidget(u.t, x.Answer).ResourceVersion != x.ObjRV {
			made = append(made, i)
		}
	}
	if errors.Is(err, patcher.ErrWriteOutcomeUnknown) {
		if !lost {
			u.t.Fatalf("%s: %v with no answer lost", what, err)
		}
		u.tally.unknown++
		if !u.afterRan {
			u.tally.unknownAlone++
		}
		return nil
	}
	if err != nil {
		if len(made) != 0 && (!lost || !apierrors.IsNotFound(err) || !u.deleted()) {
			// After a lost answer a read that finds the object deleted
			// (the other writer's delete) is NotFound.
			u.t.Fatalf("%s returned %v after its status was stored (%s)", what, err, xs[made[0]].Answer)
		}
		switch {
		case apierrors.IsConflict(err):
			u.tally.conflict++
		case apierrors.IsNotFound(err):
			u.tally.notFound++
		case u.apply && (errors.Is(err, patcher.ErrApplyCannotRemove) || apierrors.IsInvalid(err)):
			// docs/apply.md: a field another manager owns is not removed
			// (nothing sent), and removing every field of an object
			// (status, status.plan) is the server's 422.
			u.tally.refused++
		default:
			u.t.Fatalf("%s: %v, want a Conflict or NotFound", what, err)
		}
		return nil
	}
	if len(made) > 1 {
		u.t.Fatalf("%s stored its status %d times", what, len(made))
	}
	var okAt int
	switch {
	case len(made) == 1:
		okAt = made[0]
	case lastPatch >= 0 && xs[lastPatch].Code == http.StatusOK && !xs[lastPatch].Lost:
		okAt = lastPatch // answered, a version made or not
	default:
		u.tally.noop++
		return nil
	}
	u.tally.stored++
	if slices.ContainsFunc(xs, func(x exchange) bool { return x.Code == http.StatusConflict }) {
		u.tally.retried++
	}
	ok := &xs[okAt]
	ans := decodeWidget(u.t, ok.Answer)
	read := ans // the server's answer, or after a lost one the last read
	if ok.Lost {
		u.tally.settled++
		read = nil
		for _, x := range xs[okAt+1:] {
			if x.Method == http.MethodGet && x.Code == http.StatusOK && strings.Contains(x.Path, "/widgets/"+u.key.Name) {
				read = decodeWidget(u.t, x.Answer)
			}
		}
		if read == nil {
			u.t.Fatalf("%s: nil after a lost answer with no read", what)
		}
	}
	if got := u.p.Object(); jsonOf(got) != jsonOf(read) {
		u.t.Fatalf("%s: in memory\n%s\nwant the server's answer\n%s", what, jsonOf(got), jsonOf(read))
	}
	if want := u.twinStores(ok.Status); !u.apply && jsonOf(ans.Status) != jsonOf(want) {
		u.t.Fatalf("%s stored status %s; Status().Update of the same status stores %s", what, jsonOf(ans.Status), jsonOf(want))
	}
	return ok
}

// deleted reports whether the object is gone from the server.
func (u *unsentRun) deleted() bool {
	err := u.e.Client.Get(ctx, u.key, &v1.Widget{})
	return apierrors.IsNotFound(err)
}

// twinStores is the status Status().Update of s stores, on the twin.
func (u *unsentRun) twinStores(s v1.WidgetStatus) v1.WidgetStatus {
	tw := &v1.Widget{}
	if err := u.e.Client.Get(ctx, u.twin, tw); err != nil {
		u.t.Fatal(err)
	}
	tw.Status = *s.DeepCopy()
	if err := u.e.Client.Status().Update(ctx, tw); err != nil {
		u.t.Fatal(err)
	}
	return tw.Status
}

// failed is the end of a call that failed with err: the base is no
// longer known, and most of the time the reconcile is done again from a
// fresh read.
func (u *unsentRun) failed(err error) {
	u.baseRV = ""
	fresh := &v1.Widget{}
	if gerr := u.e.Client.Get(ctx, u.key, fresh); apierrors.IsNotFound(gerr) {
		u.gone = true
		return
	} else if gerr != nil {
		u.t.Fatal(gerr)
	}
	u.saw(fresh)
	if u.r.IntN(4) != 0 {
		u.renew(fresh)
	}
}
