package patcherit_test

import (
	"errors"
	"net/http"
	"strings"
	"testing"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/statuspatch/statuspatch/patcher"
	v1 "github.com/statuspatch/statuspatch/testenv/internal/testapi/v1"
)

// Issue 30, "no stale owned field is ever re-sent": the apply without the
// lock is rebased onto a fresh read and carries that read's
// resourceVersion, so a write landing between the read and the apply is a
// 409 (the decision is rebased again, mutate is not run again), and a lost
// response is settled from the history like a locked write's.

var unlocked = patcher.WithWriteMode(patcher.WriteApplyWithoutLock)

// setStatus is a writer, through its own client, that sets the status
// with set: in apply mode under owner applier when apply, else in merge
// mode under other-controller.
func setStatus(t *testing.T, key client.ObjectKey, apply bool, set func(*v1.Widget)) func() error {
	c := ownClient(t)
	return func() error {
		opts := []patcher.Option{patcher.WithMetrics(nil), patcher.WithFieldOwner("other-controller")}
		if apply {
			opts = []patcher.Option{patcher.WithMetrics(nil), patcher.WithFieldOwner(applier), patcher.WithWriteMode(patcher.WriteApply)}
		}
		p, err := patcher.Fetch(ctx, c, key, &v1.Widget{}, opts...)
		if err != nil {
			return err
		}
		return p.Retry(ctx, func(w *v1.Widget) error { set(w); return nil })
	}
}

// seenTo sets the counter "seen" to n.
func seenTo(n int64) func(*v1.Widget) {
	return func(w *v1.Widget) {
		if w.Status.Counters == nil {
			w.Status.Counters = map[string]int64{}
		}
		w.Status.Counters["seen"] = n
	}
}

// freshRun is what one no-lock decision did.
type freshRun struct {
	err  error            // Retry's
	runs int              // of mutate
	got  *v1.Widget       // the server's Widget after it
	ft   *faultyTransport // the patcher's status PATCHes
	gets int              // the GETs the patcher sent during Retry
	p    *patcher.Patcher[*v1.Widget]
}

// freshLockRun makes one no-lock decision (the counter "seen" from 1 to
// 2, through Retry) through a client that injects plan into its status
// PATCHes, with foreign(key) as the other writer.
func freshLockRun(t *testing.T, plan []plannedFault, foreign func(client.ObjectKey) func() error) freshRun {
	t.Helper()
	e := env(t)
	key := newWidget(t, e.Client)
	if err := setStatus(t, key, true, func(w *v1.Widget) { w.Status.Phase = "Pending"; seenTo(1)(w) })(); err != nil {
		t.Fatal(err)
	}
	ft := &faultyTransport{foreign: foreign(key)}
	rec := &recorder{}
	c := wrappedClient(t, e, func(rt http.RoundTripper) http.RoundTripper { return ft.wrap(rec.wrap(rt)) })
	p := fetchApply(t, c, key, unlocked, patcher.WithMetrics(nil), fastRetry)
	ft.plan = plan
	before := len(rec.requests())
	r := freshRun{ft: ft, p: p}
	r.err = p.Retry(ctx, func(w *v1.Widget) error { r.runs++; seenTo(2)(w); return nil })
	for _, q := range rec.requests()[before:] {
		if q.Method == http.MethodGet {
			r.gets++
		}
	}
	r.got = get(t, e.Client, key)
	t.Logf("Retry = %v; %d runs, %d status PATCHes (%d forwarded), %d GETs; stored %+v", r.err, r.runs, ft.patches, ft.applied, r.gets, r.got.Status)
	return r
}

// A locked writer of the same field owner stores phase=Running exactly in
// the window between the no-lock patcher's fresh read and its apply. The
// apply gets a 409, the decision is rebased onto a new read and sent
// again: phase stays Running, the counter is 2, mutate ran once. The cost
// of the write in the window, counted: one more apply and two more GETs
// (the read that settles the 409, the new fresh read).
//
// Before: the apply carried no resourceVersion and put phase=Pending back,
// nil error.
func TestApplyFreshLockKeepsASameOwnerWriteInTheWindow(t *testing.T) {
	r := freshLockRun(t, []plannedFault{{kind: faultForeign}}, func(key client.ObjectKey) func() error {
		return setStatus(t, key, true, func(w *v1.Widget) { w.Status.Phase = "Running" })
	})
	if r.err != nil || r.runs != 1 || r.got.Status.Phase != "Running" || r.got.Status.Counters["seen"] != 2 {
		t.Fatalf("Retry = %v after %d runs, stored %+v; want nil, 1 run, phase Running kept, seen 2", r.err, r.runs, r.got.Status)
	}
	if r.ft.patches != 2 || r.gets != 3 {
		t.Fatalf("%d status PATCHes and %d GETs; want 2 and 3 (the window's write costs one apply and two GETs)", r.ft.patches, r.gets)
	}
}

// Another controller writes a field of its own (merge mode) in the
// window: both values are stored, ours once (mutate ran once, the apply
// that got the 409 stored nothing), and Retry returns nil.
func TestApplyFreshLockADisjointCoWriterInTheWindow(t *testing.T) {
	r := freshLockRun(t, []plannedFault{{kind: faultForeign}}, func(key client.ObjectKey) func() error {
		return setStatus(t, key, false, func(w *v1.Widget) { w.Status.Items = append(w.Status.Items, "theirs") })
	})
	if r.err != nil || r.runs != 1 || r.got.Status.Counters["seen"] != 2 || strings.Join(r.got.Status.Items, ",") != "theirs" || r.got.Status.Phase != "Pending" {
		t.Fatalf("Retry = %v after %d runs, stored %+v; want nil, 1 run, seen 2, items [theirs], phase Pending", r.err, r.runs, r.got.Status)
	}
	if r.ft.patches != 2 {
		t.Fatalf("%d status PATCHes; want 2 (the first got the 409)", r.ft.patches)
	}
}

// Lost responses of a no-lock apply, settled from the server's evidence:
//
//   - stored, then overwritten by another controller's seen=10, then the
//     connection reset: the history's first version after the fresh read
//     is ours: nil, seen 10 kept, nothing sent again. Before:
//     ErrWriteOutcomeUnknown ("may be stored at any time").
//   - stored, overwritten, then a 500 with Retry-After: client-go's own
//     resend gets a 409 (it carries the fresh read's resourceVersion):
//     settled as stored, nil, seen 10 kept. Before: the resend, without a
//     resourceVersion, was stored again over seen 10, nil error.
//   - not stored (another controller's write, then a reset before the
//     server): the history's first version is theirs, so the decision is
//     rebased and sent again: nil, seen 2, their items kept. Before:
//     ErrWriteOutcomeUnknown.
func TestApplyFreshLockSettlesALostResponse(t *testing.T) {
	overwrite := func(key client.ObjectKey) func() error { return setStatus(t, key, false, seenTo(10)) }
	theirs := func(key client.ObjectKey) func() error {
		return setStatus(t, key, false, func(w *v1.Widget) { w.Status.Items = append(w.Status.Items, "theirs") })
	}
	for _, c := range []struct {
		fault   plannedFault
		foreign func(client.ObjectKey) func() error
		seen    int64
		items   string
		patches int
	}{
		{plannedFault{kind: faultOverwritten, after: true}, overwrite, 10, "", 1},
		{plannedFault{kind: faultOverwrittenRetryAfter, after: true}, overwrite, 10, "", 2},
		{plannedFault{kind: faultForeignReset}, theirs, 2, "theirs", 2},
	} {
		t.Run(c.fault.kind.String(), func(t *testing.T) {
			r := freshLockRun(t, []plannedFault{c.fault}, c.foreign)
			if r.err != nil || r.runs != 1 || r.got.Status.Counters["seen"] != c.seen || strings.Join(r.got.Status.Items, ",") != c.items {
				t.Fatalf("Retry = %v after %d runs, stored %+v; want nil, 1 run, seen %d, items %q", r.err, r.runs, r.got.Status, c.seen, c.items)
			}
			if r.ft.patches != c.patches {
				t.Fatalf("%d status PATCHes; want %d", r.ft.patches, c.patches)
			}
			if o := r.p.Object(); o.ResourceVersion != r.got.ResourceVersion || r.p.HasChanges() {
				t.Fatalf("the object (resourceVersion %s, changes %v) is not the server's (%s)", o.ResourceVersion, r.p.HasChanges(), r.got.ResourceVersion)
			}
		})
	}
}

// A write lands in the window before every one of the bounded applies:
// Flush returns a Conflict that says so and names the object, nothing of
// the decision is stored, and the decision was sent maxWindowWrites (5)
// times, each rebased onto a new read. Retry takes that Conflict as any
// other: it runs the decision again on a new read, which is stored (6
// applies, 2 runs of mutate).
func TestApplyFreshLockGivesUpAfterFiveWindowWrites(t *testing.T) {
	e := env(t)
	for _, retry := range []bool{false, true} {
		t.Run(map[bool]string{false: "Flush", true: "Retry"}[retry], func(t *testing.T) {
			key := newWidget(t, e.Client)
			n := 0
			ft := &faultyTransport{foreign: func() error {
				n++
				return setStatus(t, key, false, func(w *v1.Widget) { w.Status.Items = append(w.Status.Items, "theirs") })()
			}}
			for range 5 {
				ft.plan = append(ft.plan, plannedFault{kind: faultForeign})
			}
			p := fetchApply(t, faultyClient(t, e, ft), key, unlocked, patcher.WithMetrics(nil), fastRetry)
			if retry {
				runs := 0
				err := p.Retry(ctx, func(w *v1.Widget) error { runs++; seenTo(2)(w); return nil })
				got := get(t, e.Client, key)
				if err != nil || runs != 2 || ft.patches != 6 || got.Status.Counters["seen"] != 2 || len(got.Status.Items) != 5 {
					t.Fatalf("Retry = %v after %d runs and %d status PATCHes, stored %+v; want nil, 2 runs, 6 PATCHes, seen 2 and 5 of theirs", err, runs, ft.patches, got.Status)
				}
				return
			}
			seenTo(2)(p.Object())
			err := p.Flush(ctx)
			got := get(t, e.Client, key)
			if !apierrors.IsConflict(err) || errors.Is(err, patcher.ErrWriteOutcomeUnknown) || !strings.Contains(err.Error(), "sent 5 times") ||
				!strings.Contains(err.Error(), key.Name) || got.Status.Counters["seen"] != 0 || ft.patches != 5 || n != 5 {
				t.Fatalf("Flush = %v after %d status PATCHes, stored %+v; want a Conflict saying it was sent 5 times, naming the object, nothing stored",
					err, ft.patches, got.Status)
			}
		})
	}
}
