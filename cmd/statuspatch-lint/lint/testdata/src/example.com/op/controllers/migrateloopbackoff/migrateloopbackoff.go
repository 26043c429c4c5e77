// Package migrateloopbackoff: conflict loops with a backoff of their own.
// A wait.Backoff the patcher's Fetch in the loop's place can name (a
// package's variable, a field) goes to the patcher as
// patcher.WithBackoff, and the loop becomes its Retry; any other
// backoff keeps the loop.
package migrateloopbackoff

import (
	"context"
	"time"

	v1 "example.com/op/api/v1"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/client-go/util/retry"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// statusBackoff is openstack-hypervisor-operator's StatusPatchBackoff.
var statusBackoff = wait.Backoff{Steps: 10, Duration: 50 * time.Millisecond, Factor: 2.0, Jitter: 0.2}

// A package's variable, a locked merge patch with a field owner.
func patchStatus(ctx context.Context, c client.Client, name string) error {
	return retry.RetryOnConflict(statusBackoff, func() error {
		w := &v1.Widget{}
		if err := c.Get(ctx, client.ObjectKey{Name: name}, w); err != nil {
			return err
		}
		base := w.DeepCopy()
		w.Status.Size++
		return c.Status().Patch(ctx, w, client.MergeFromWithOptions(base, client.MergeFromWithOptimisticLock{}), client.FieldOwner("op")) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example.com/op/internal/patchers\)$`
	})
}

type settings struct{ Backoff wait.Backoff }

type Reconciler struct {
	client.Client
	cfg settings
}

// A field of the reconciler's settings.
func (r *Reconciler) field(ctx context.Context, key client.ObjectKey) error {
	err := retry.RetryOnConflict(r.cfg.Backoff, func() error {
		w := &v1.Widget{}
		if err := r.Get(ctx, key, w); err != nil {
			return err
		}
		w.Status.Ready = true
		return r.Status().Update(ctx, w) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example.com/op/internal/patchers\)$`
	})
	return err
}

func newBackoff() wait.Backoff { return wait.Backoff{Steps: 3} }

// A backoff a call makes: the loop stays.
func called(ctx context.Context, c client.Client, key client.ObjectKey) error {
	return retry.RetryOnConflict(newBackoff(), func() error {
		w := &v1.Widget{}
		if err := c.Get(ctx, key, w); err != nil {
			return err
		}
		w.Status.Size++
		return c.Status().Update(ctx, w) // want `^handwritten status write to Widget.*\(not moved to the patcher: the write is in retry\.RetryOnConflict's function, whose backoff newBackoff\(\) is not retry\.DefaultRetry or retry\.DefaultBackoff, nor a variable of type wait\.Backoff `
	})
}
