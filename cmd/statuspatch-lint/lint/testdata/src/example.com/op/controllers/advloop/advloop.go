package advloop

import (
	"context"
	"fmt"

	v1 "example.com/op/api/v1"
	"k8s.io/client-go/util/retry"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

type R struct {
	client.Client
}

// The value is used on the error path after the loop: it holds the last
// read there, whatever failed after it.
func (r *R) errorPath(ctx context.Context, key client.ObjectKey) error {
	var w v1.Widget
	err := retry.RetryOnConflict(retry.DefaultRetry, func() error {
		if err := r.Get(ctx, key, &w); err != nil {
			return err
		}
		w.Status.Size = 3
		return r.Status().Update(ctx, &w) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example\.com/op/internal/patchers\)$`
	})
	if err != nil {
		return fmt.Errorf("widget %s: %w", w.Name, err)
	}
	return nil
}

// The same with a pointer.
func (r *R) errorPathPtr(ctx context.Context, key client.ObjectKey) error {
	w := &v1.Widget{}
	err := retry.RetryOnConflict(retry.DefaultRetry, func() error {
		if err := r.Get(ctx, key, w); err != nil {
			return err
		}
		w.Status.Size = 3
		return r.Status().Update(ctx, w) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example\.com/op/internal/patchers\)$`
	})
	if err != nil {
		return fmt.Errorf("widget %s: %w", w.Name, err)
	}
	return nil
}
