// Package advonceunseen: a decision that calls a function of another
// package of the module, whose body -fix does not see. Given nothing of
// the decision it is made once, as the code before the move called it
// once (sequtil.Next hands out a number each call: a second attempt would
// hand out a second, issue 80); given the object it stays a reader.
package advonceunseen

import (
	"context"

	v1 "example.com/op/api/v1"
	"example.com/op/sequtil"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

type R struct{ client.Client }

// Given constants: made once.
func (r *R) allocate(ctx context.Context, key client.ObjectKey) error {
	w := &v1.Widget{}
	if err := r.Get(ctx, key, w); err != nil {
		return err
	}
	if w.Status.Size == 0 {
		w.Status.Size = int(sequtil.Next(5))
	}
	return r.Status().Update(ctx, w) // want `handwritten status write to Widget`
}

// Given the object's name: a reader of what the attempt read.
func (r *R) sized(ctx context.Context, key client.ObjectKey) error {
	w := &v1.Widget{}
	if err := r.Get(ctx, key, w); err != nil {
		return err
	}
	if w.Status.Size == 0 {
		w.Status.Size = sequtil.Of(w.Name)
	}
	return r.Status().Update(ctx, w) // want `handwritten status write to Widget`
}
