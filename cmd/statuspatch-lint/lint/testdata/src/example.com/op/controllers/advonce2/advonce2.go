package advonce2

import (
	"context"
	"sync/atomic"

	v1 "example.com/op/api/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

var tokens atomic.Int64

type R struct{ client.Client }

// A token handed out; sync is the package's map.
func (r *R) sized(ctx context.Context, key client.ObjectKey) error {
	w := &v1.Widget{}
	if err := r.Get(ctx, key, w); err != nil {
		return err
	}
	if w.Status.Size == 0 {
		w.Status.Size = int(tokens.Add(1))
	}
	return r.Status().Update(ctx, w) // want `\(not moved to the patcher: the decision's calls made once need sync, which this file cannot import\)`
}
