package patcherit_test

import (
	"errors"
	"fmt"
	"slices"
	"testing"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	v1 "github.com/statuspatch/statuspatch/internal/testapi/v1"
	"github.com/statuspatch/statuspatch/patcher"
)

// Issue 71, cases 1 and 2: a write that only removes items of a map list
// (or a condition) changes no time in any managedFields entry: the
// server's field manager stamps an entry only for the fields a write adds
// or changes. Such a write, ours or another's, leaves no stamp to tell
// whose it was.

// removal is a decision that only removes: taking the first job off a
// queue (status.members, +listType=map keyed by name), or dropping the
// first condition (status.conditions, +listType=map keyed by type).
type removal struct {
	name string
	// fill puts three items in the status.
	fill func(w *v1.Widget)
	// take removes the first item and returns its key.
	take func(w *v1.Widget) string
	// keys are the items the status holds.
	keys func(w *v1.Widget) []string
}

var removals = []removal{
	{"queue",
		func(w *v1.Widget) {
			w.Status.Members = []v1.WidgetMember{{Name: "job-1"}, {Name: "job-2"}, {Name: "job-3"}}
		},
		func(w *v1.Widget) string {
			if len(w.Status.Members) == 0 {
				return ""
			}
			name := w.Status.Members[0].Name
			w.Status.Members = w.Status.Members[1:]
			return name
		},
		func(w *v1.Widget) []string {
			var ks []string
			for _, m := range w.Status.Members {
				ks = append(ks, m.Name)
			}
			return ks
		}},
	{"conditions",
		func(w *v1.Widget) {
			meta.SetStatusCondition(&w.Status.Conditions, metav1.Condition{Type: "job-1", Status: metav1.ConditionTrue, Reason: "Queued"})
			meta.SetStatusCondition(&w.Status.Conditions, metav1.Condition{Type: "job-2", Status: metav1.ConditionTrue, Reason: "Queued"})
			meta.SetStatusCondition(&w.Status.Conditions, metav1.Condition{Type: "job-3", Status: metav1.ConditionTrue, Reason: "Queued"})
		},
		func(w *v1.Widget) string {
			if len(w.Status.Conditions) == 0 {
				return ""
			}
			typ := w.Status.Conditions[0].Type
			meta.RemoveStatusCondition(&w.Status.Conditions, typ)
			return typ
		},
		func(w *v1.Widget) []string {
			var ks []string
			for _, c := range w.Status.Conditions {
				ks = append(ks, c.Type)
			}
			return ks
		}},
}

var issue71Modes = []patcher.WriteMode{patcher.WriteMergePatch, patcher.WriteApply}

func retryName(retry bool) string { return map[bool]string{true: "Retry", false: "Flush"}[retry] }

// takeOne makes the decision once through Flush, or through Retry (which
// decides again after a Conflict); taken is the item of the last run.
func takeOne(p *patcher.Patcher[*v1.Widget], rm removal, retry bool) (taken string, runs int, err error) {
	mutate := func(w *v1.Widget) error { runs++; taken = rm.take(w); return nil }
	if retry {
		err = p.Retry(ctx, mutate)
		return taken, runs, err
	}
	_ = mutate(p.Object())
	return taken, runs, p.Flush(ctx)
}

// fillQueue makes the status hold the three items, written by owner in
// mode (with opts): this controller's entry holds them and the newest
// second.
func fillQueue(t *testing.T, c client.Client, key client.ObjectKey, rm removal, owner string, mode patcher.WriteMode, opts ...patcher.Option) {
	t.Helper()
	p, err := patcher.Fetch(ctx, c, key, &v1.Widget{}, append([]patcher.Option{patcher.WithMetrics(nil), patcher.WithFieldOwner(owner), patcher.WithWriteMode(mode)}, opts...)...)
	if err != nil {
		t.Fatal(err)
	}
	rm.fill(p.Object())
	if err := p.Flush(ctx); err != nil {
		t.Fatal(err)
	}
}

// Case 1: two controllers take the first item off one queue from one
// base. The other's removal is stored; ours is reset before it reaches the
// server. No entry is stamped and ours holds the newest second; the first
// version after the base is exactly the base plus ours. Nothing proves
// the version ours: nil (both told they took job-1) is silent loss.
// Conflict (not stored) or ErrWriteOutcomeUnknown are right; Retry after a
// Conflict takes job-2.
//
// Before: nil, job-1 taken by both, merge and apply mode.
func TestIssue71ARemovalStampsNothing(t *testing.T) {
	e := env(t)
	for _, rm := range removals {
		for _, mode := range issue71Modes {
			for _, retry := range []bool{false, true} {
				t.Run(fmt.Sprintf("%s/%v/%s", rm.name, mode, retryName(retry)), func(t *testing.T) {
					key := newWidget(t, e.Client)
					fillQueue(t, e.Client, key, rm, "queue-controller", mode)
					theirs := ""
					other := ownClient(t)
					ft := &faultyTransport{plan: []plannedFault{{kind: faultForeignReset}}}
					ft.foreign = func() error { // the other controller (another process), from the same base
						var err error
						theirs, err = lockedTake(other, key, rm)
						return err
					}
					c := faultyClient(t, e, ft)
					p, err := patcher.Fetch(ctx, c, key, &v1.Widget{}, append(historyOptions(c), patcher.WithFieldOwner("queue-controller"), patcher.WithWriteMode(mode))...)
					if err != nil {
						t.Fatal(err)
					}
					taken, runs, err := takeOne(p, rm, retry)
					got := rm.keys(get(t, e.Client, key))
					if theirs != "job-1" {
						t.Fatalf("setup: the other controller took %q", theirs)
					}
					switch {
					case err == nil && taken == theirs:
						t.Fatalf("= nil after %d runs: both controllers told they took %s (server holds %v)", runs, taken, got)
					case err == nil && slices.Contains(got, taken):
						t.Fatalf("= nil after %d runs: took %s, which the server still holds (%v)", runs, taken, got)
					case err != nil && !apierrors.IsConflict(err) && !errors.Is(err, patcher.ErrWriteOutcomeUnknown):
						t.Fatalf("= %v; want nil with job-2 taken, a Conflict or ErrWriteOutcomeUnknown", err)
					}
					t.Logf("= %v after %d runs, took %s; server holds %v", err, runs, taken, got)
				})
			}
		}
	}
}

// Case 2: the same removal, stored, its answer lost, after another
// controller wrote later than our last status write. Our entry keeps its
// time (a removal stamps nothing), which "a stored write would have
// stamped it" read as a Conflict: Retry then took job-2 too, for one
// decision. nil or ErrWriteOutcomeUnknown are right, the decision made
// once.
//
// Before: a Conflict in merge mode, and Retry took job-1 and job-2.
func TestIssue71AStoredRemovalIsNotAConflict(t *testing.T) {
	e := env(t)
	for _, rm := range removals {
		for _, mode := range issue71Modes {
			for _, retry := range []bool{false, true} {
				t.Run(fmt.Sprintf("%s/%v/%s", rm.name, mode, retryName(retry)), func(t *testing.T) {
					key := newWidget(t, e.Client)
					fillQueue(t, e.Client, key, rm, "queue-controller", mode)
					untilNextSecond()
					later, err := patcher.Fetch(ctx, ownClient(t), key, &v1.Widget{}, patcher.WithMetrics(nil), patcher.WithFieldOwner("phase-controller"))
					if err != nil {
						t.Fatal(err)
					}
					later.Object().Status.Phase = "Busy"
					if err := later.Flush(ctx); err != nil {
						t.Fatal(err)
					}
					ft := &faultyTransport{plan: []plannedFault{{kind: faultReset, after: true}}}
					c := faultyClient(t, e, ft)
					p, err := patcher.Fetch(ctx, c, key, &v1.Widget{}, append(historyOptions(c), patcher.WithFieldOwner("queue-controller"), patcher.WithWriteMode(mode))...)
					if err != nil {
						t.Fatal(err)
					}
					taken, runs, err := takeOne(p, rm, retry)
					got := rm.keys(get(t, e.Client, key))
					if !slices.Equal(got, []string{"job-2", "job-3"}) {
						t.Fatalf("= %v after %d runs (took %s): server holds %v; want [job-2 job-3]", err, runs, taken, got)
					}
					wantStoredNotConflict(t, err, runs)
				})
			}
		}
	}
}

// lockedTake is another process's controller taking the first item: a
// merge patch of the status under the lock, not through a patcher (whose
// answers this process would know).
func lockedTake(c client.Client, key client.ObjectKey, rm removal) (string, error) {
	w := &v1.Widget{}
	if err := c.Get(ctx, key, w); err != nil {
		return "", err
	}
	orig := w.DeepCopy()
	taken := rm.take(w)
	return taken, c.Status().Patch(ctx, w, client.MergeFromWithOptions(orig, client.MergeFromWithOptimisticLock{}), client.FieldOwner("other-queue-controller"))
}
