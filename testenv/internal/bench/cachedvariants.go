package main

import (
	"context"
	"fmt"
	"slices"

	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	v1 "github.com/statuspatch/statuspatch/internal/testapi/v1"
	"github.com/statuspatch/statuspatch/patcher"
)

// workload is what each of K writers does M times to one Widget, and how
// to tell from the final object which of their converged updates were lost.
type workload struct {
	name string
	// owned lists the condition types writer w owns (none: nil).
	owned func(w int) []string
	// mutate makes writer w's update i on the object.
	mutate func(obj *v1.Widget, w, i int)
	// lost counts, in the final object, the converged updates that are
	// missing; last[w] is writer w's last converged update (-1: none) and
	// converged[w][i] whether its update i converged.
	lost func(final *v1.Widget, last []int, converged [][]bool) int
}

// itemsWorkload: every writer appends entries to one shared list
// (status.items, replaced whole by a merge patch). Nothing of it is a
// writer's own, so only a read-modify-write under the lock keeps all.
var itemsWorkload = workload{
	name:   "items",
	owned:  func(int) []string { return nil },
	mutate: func(obj *v1.Widget, w, i int) { obj.Status.Items = append(obj.Status.Items, itemEntry(w, i)) },
	lost: func(final *v1.Widget, _ []int, converged [][]bool) int {
		n := 0
		for w := range converged {
			for i, ok := range converged[w] {
				if ok && !slices.Contains(final.Status.Items, itemEntry(w, i)) {
					n++
				}
			}
		}
		return n
	},
}

func itemEntry(w, i int) string { return fmt.Sprintf("w%d-%d", w, i) }

// conditionsWorkload: co-writers, each owning one condition type and
// setting it M times (Reason Step<i>). Only the last update of each writer
// is visible in the end, so lost counts the writers whose condition in the
// final object is missing or older than their last converged update (at
// most K). A later step is not a loss: an update cut off by the bound may
// have been written although its writer saw an error.
var conditionsWorkload = workload{
	name:  "conditions",
	owned: func(w int) []string { return []string{conditionType(w)} },
	mutate: func(obj *v1.Widget, w, i int) {
		meta.SetStatusCondition(&obj.Status.Conditions, metav1.Condition{
			Type: conditionType(w), Status: metav1.ConditionTrue, Reason: fmt.Sprintf("Step%d", i), Message: fmt.Sprintf("update %d of writer %d", i, w),
		})
	},
	lost: func(final *v1.Widget, last []int, _ [][]bool) int {
		n := 0
		for w, i := range last {
			if i < 0 {
				continue
			}
			if j, ok := stepOf(meta.FindStatusCondition(final.Status.Conditions, conditionType(w))); !ok || j < i {
				n++
			}
		}
		return n
	},
}

func conditionType(w int) string { return fmt.Sprintf("Writer%d", w) }

// stepOf is the update a writer's condition shows; ok is false for a
// missing or malformed condition.
func stepOf(c *metav1.Condition) (step int, ok bool) {
	if c == nil {
		return 0, false
	}
	_, err := fmt.Sscanf(c.Reason, "Step%d", &step)
	return step, err == nil
}

// reconcileOnce is one reconcile of a writer that wants mutate applied to
// the Widget: it reads through the writer's cache as a reconciler does.
// An error makes the caller requeue it with the controller's rate limiter.
type reconcileOnce func(ctx context.Context, wr *cachedWriter, key client.ObjectKey, owned []string, mutate func(*v1.Widget)) error

// cachedVariants are the variants in the order they run.
var cachedVariants = []struct {
	name, label string
	fn          reconcileOnce
}{
	{"retry", "statuspatch (ForManager)", reconcilePatcher},
	{"requeue", "optimistic + requeue", reconcileRequeue},
	{"capi", "cluster-api-style helper", reconcileCAPI},
	{"blind", "blind MergeFrom", reconcileBlind},
	// Not in the default -variants: statuspatch with Retry on conditions
	// too, to compare with WithOwnedConditions.
	{"retry-only", "statuspatch Retry, no owned conditions", reconcilePatcherRetry},
}

// reconcilePatcher is statuspatch as the README shows it: a client made
// by ForManager (cache reads, the API reader for fresh ones), Fetch, then
// Retry for a change that depends on the status (items), or, for owned
// conditions, a Flush under WithOwnedConditions.
func reconcilePatcher(ctx context.Context, wr *cachedWriter, key client.ObjectKey, owned []string, mutate func(*v1.Widget)) error {
	opts := []patcher.Option{patcher.WithMetrics(nil)}
	if len(owned) > 0 {
		opts = append(opts, patcher.WithOwnedConditions(owned...))
	}
	p, err := patcher.Fetch(ctx, patcher.ForManager(wr, opts...), key, &v1.Widget{})
	if err != nil {
		return err
	}
	if len(owned) > 0 {
		mutate(p.Object())
		return p.Flush(ctx)
	}
	return p.Retry(ctx, func(w *v1.Widget) error { mutate(w); return nil })
}

// reconcilePatcherRetry is reconcilePatcher with Retry in both workloads.
func reconcilePatcherRetry(ctx context.Context, wr *cachedWriter, key client.ObjectKey, _ []string, mutate func(*v1.Widget)) error {
	return reconcilePatcher(ctx, wr, key, nil, mutate)
}

// reconcileRequeue is the handwritten optimistic patch: read the cache,
// patch under the lock, return the 409 to be requeued.
func reconcileRequeue(ctx context.Context, wr *cachedWriter, key client.ObjectKey, _ []string, mutate func(*v1.Widget)) error {
	w := &v1.Widget{}
	if err := wr.client.Get(ctx, key, w); err != nil {
		return err
	}
	base := w.DeepCopy()
	mutate(w)
	return wr.client.Status().Patch(ctx, w, client.MergeFromWithOptions(base, client.MergeFromWithOptimisticLock{}))
}

// reconcileCAPI reads the cache, takes a capiHelper snapshot, mutates and
// patches, passing the writer's owned conditions as cluster-api
// controllers pass WithOwnedConditions.
func reconcileCAPI(ctx context.Context, wr *cachedWriter, key client.ObjectKey, owned []string, mutate func(*v1.Widget)) error {
	w := &v1.Widget{}
	if err := wr.client.Get(ctx, key, w); err != nil {
		return err
	}
	h := newCAPIHelper(wr.client, w, owned...)
	mutate(w)
	return h.Patch(ctx, w)
}

// reconcileBlind reads the cache and patches without the lock: the loss
// reference.
func reconcileBlind(ctx context.Context, wr *cachedWriter, key client.ObjectKey, _ []string, mutate func(*v1.Widget)) error {
	w := &v1.Widget{}
	if err := wr.client.Get(ctx, key, w); err != nil {
		return err
	}
	base := w.DeepCopy()
	mutate(w)
	return wr.client.Status().Patch(ctx, w, client.MergeFrom(base))
}
