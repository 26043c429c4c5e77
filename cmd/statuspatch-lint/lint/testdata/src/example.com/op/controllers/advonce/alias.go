//go:build !never

package advonce

import (
	"context"
	gosync "sync"

	v1 "example.com/op/api/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

var mu gosync.Mutex

// sync imported as gosync, in a file with a build tag.
func (r *R) aliased(ctx context.Context, key client.ObjectKey) error {
	mu.Lock()
	defer mu.Unlock()
	w := &v1.Widget{}
	if err := r.Get(ctx, key, w); err != nil {
		return err
	}
	if w.Status.Size == 0 {
		w.Status.Size = int(tokens.Add(1))
	}
	return r.Status().Update(ctx, w) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example\.com/op/internal/patchers\)$`
}
