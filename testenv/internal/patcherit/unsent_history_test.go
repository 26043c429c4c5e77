package patcherit_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"strings"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"sigs.k8s.io/controller-runtime/pkg/client"

	v1 "github.com/statuspatch/statuspatch/internal/testapi/v1"
)

// The writes of a WithNonStatusChangesUnsent schedule besides the
// patcher's (the caller's own Update, the other writer's) and the
// object's history (TestNonStatusChangesUnsentSchedules).

// ownUpdate is the caller's own Update of the object: the changes it
// means to store (spec.data "mine-N"), none of the marked ones.
func (u *unsentRun) ownUpdate(w *v1.Widget) {
	if w.Spec.Size >= 1000 {
		w.Spec.Size = 1
	}
	w.Spec.Data = fmt.Sprintf("mine-%d", u.n)
	delete(w.Labels, "ours")
	delete(w.Annotations, "ours")
	delete(w.Spec.Labels, "ours")
	// The finalizers as stored at the object's version: an Update stores
	// the list in memory, which outside() may have emptied.
	if v, ok := u.versions[w.ResourceVersion]; ok {
		w.Finalizers = slices.Clone(v.Finalizers)
	}
	w.Finalizers = slices.DeleteFunc(w.Finalizers, func(f string) bool { return f == "ours.test/mem" })
	if u.r.IntN(2) == 0 {
		u.statusChange(&w.Status) // lost: the answer's status replaces it
	}
	err := u.c.Update(ctx, w)
	switch {
	case err == nil:
		u.saw(w)
	case apierrors.IsConflict(err), apierrors.IsNotFound(err):
		u.failed(err)
	default:
		u.t.Fatalf("step %d: own Update: %v", u.n, err)
	}
}

// other is the other writer's write, with its own client.
func (u *unsentRun) other() {
	w := &v1.Widget{}
	if err := u.e.Client.Get(ctx, u.key, w); err != nil {
		if apierrors.IsNotFound(err) {
			return
		}
		u.t.Fatal(err)
	}
	u.saw(w)
	mark := fmt.Sprintf("other-%d", u.n)
	var err error
	switch k := u.r.IntN(9); {
	case k < 2:
		w.Spec.Size, w.Spec.Data = int32(500+u.n), mark
		err = u.e.Client.Update(ctx, w)
	case k < 4:
		base := w.DeepCopy()
		w.Status.Phase, w.Status.Items = mark, append(w.Status.Items, mark)
		err = u.e.Client.Status().Patch(ctx, w, client.MergeFrom(base))
	case k < 6:
		base := w.DeepCopy()
		w.Labels = map[string]string{"other": mark}
		err = u.e.Client.Patch(ctx, w, client.MergeFrom(base))
	case k < 8:
		if w.DeletionTimestamp != nil || slices.Contains(w.Finalizers, otherFinalizer) {
			return
		}
		w.Finalizers = append(w.Finalizers, otherFinalizer)
		err = u.e.Client.Update(ctx, w)
	default:
		if u.n < 6 {
			return
		}
		if err = u.e.Client.Delete(ctx, w); err == nil {
			err = u.e.Client.Get(ctx, u.key, w)
			if apierrors.IsNotFound(err) {
				return // our next call meets NotFound
			}
		}
	}
	if err != nil {
		u.t.Fatalf("the other writer: %v", err)
	}
	u.saw(w)
}

// armOther makes the other writer write just before the patcher's next
// request of one kind.
func (u *unsentRun) armOther() {
	matches := []func(method, path string) bool{
		func(m, p string) bool { return m == http.MethodPatch && strings.HasSuffix(p, "/status") },
		func(m, _ string) bool { return m == http.MethodGet },
		func(m, _ string) bool { return m == http.MethodPatch },
	}
	u.wire.arm(matches[u.r.IntN(len(matches))], u.other)
}

// checkHistory: property 4 on every version of the object.
func (u *unsentRun) checkHistory() {
	keptAt := int64(-1)
	for _, rv := range sortedRVs(u.versions) {
		w := u.versions[rv]
		switch {
		case strings.HasPrefix(w.Spec.Data, "ours"), w.Spec.Size >= 1000, w.Labels["ours"] != "",
			w.Annotations["ours"] != "", w.Spec.Labels["ours"] != "", slices.Contains(w.Finalizers, "ours.test/mem"):
			u.t.Fatalf("version %s holds a change made outside status in memory: %s", rv, jsonOf(w))
		}
		n, _ := strconv.ParseInt(rv, 10, 64)
		if slices.Contains(w.Finalizers, otherFinalizer) {
			if keptAt < 0 {
				keptAt = n
			}
		} else if keptAt >= 0 {
			u.t.Fatalf("version %s lost the other writer's finalizer, there since %d: %s", rv, keptAt, jsonOf(w))
		}
	}
}

// sortedRVs are the versions' resourceVersions, oldest first.
func sortedRVs(vs map[string]*v1.Widget) []string {
	rvs := make([]string, 0, len(vs))
	for rv := range vs {
		rvs = append(rvs, rv)
	}
	slices.SortFunc(rvs, func(a, b string) int {
		x, _ := strconv.ParseInt(a, 10, 64)
		y, _ := strconv.ParseInt(b, 10, 64)
		return int(x - y)
	})
	return rvs
}

type fataler interface{ Fatal(args ...any) }

func decodeWidget(t fataler, b []byte) *v1.Widget {
	w := &v1.Widget{}
	if err := json.Unmarshal(b, w); err != nil {
		t.Fatal(fmt.Errorf("decode %s: %w", b, err))
	}
	return w
}

// jsonOf is v as JSON, the object's metadata, spec and status compared
// without its type meta (which the decoding client clears or keeps).
func jsonOf(v any) string {
	if w, ok := v.(*v1.Widget); ok {
		v = []any{w.ObjectMeta, w.Spec, w.Status}
	}
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprintf("<%v>", err)
	}
	return string(b)
}
