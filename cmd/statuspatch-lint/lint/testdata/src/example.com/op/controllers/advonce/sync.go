package advonce

import (
	"context"

	v1 "example.com/op/api/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// A local named sync.
func (r *R) shadow(ctx context.Context, key client.ObjectKey) error {
	w := &v1.Widget{}
	if err := r.Get(ctx, key, w); err != nil {
		return err
	}
	sync := "once"
	_ = sync
	if w.Status.Size == 0 {
		w.Status.Size = int(tokens.Add(1))
	}
	return r.Status().Update(ctx, w) // want `\(not moved to the patcher: .*the decision's calls made once need sync, which this file cannot import`
}
