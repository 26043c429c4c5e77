// Package migratealone calls markutil's exported helpers before its own
// write of the same widget. Analyzed alone, the write stays; its reason
// says whether statuspatch-lint -fix on the whole module moves it with
// the helper's (MarkReady, an Update) or not (MarkSized, a Patch from
// its base; MarkUsed, used other than in a call).
package migratealone

import (
	"context"

	v1 "example.com/op/api/v1"
	"example.com/op/markutil"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

type R struct {
	client.Client
}

func (r *R) ready(ctx context.Context, req ctrl.Request) error {
	w := &v1.Widget{}
	if err := r.Get(ctx, req.NamespacedName, w); err != nil {
		return err
	}
	if w.Status.Size == 0 {
		return markutil.MarkReady(ctx, r.Client, w)
	}
	w.Status.Size++
	return r.Status().Update(ctx, w) // want `\(not moved to the patcher: w is passed to markutil\.MarkReady at line \d+, where its status is written at markutil\.go:\d+, a write in another package, which a run on this package alone does not move: nothing in this package keeps them apart; statuspatch-lint -fix on the whole module moves them together unless another caller of it keeps its write\)$`
}

func (r *R) sized(ctx context.Context, req ctrl.Request) error {
	w := &v1.Widget{}
	if err := r.Get(ctx, req.NamespacedName, w); err != nil {
		return err
	}
	if !w.Status.Ready {
		return markutil.MarkSized(ctx, r.Client, w, w.DeepCopy(), 1)
	}
	w.Status.Size++
	return r.Status().Update(ctx, w) // want `\(not moved to the patcher: w is passed to markutil\.MarkSized at line \d+, where its status is written at markutil\.go:\d+, a write -fix does not move with the caller's\)$`
}

func (r *R) used(ctx context.Context, req ctrl.Request) error {
	w := &v1.Widget{}
	if err := r.Get(ctx, req.NamespacedName, w); err != nil {
		return err
	}
	if w.Status.Size == 0 {
		return markutil.MarkUsed(ctx, r.Client, w)
	}
	w.Status.Size++
	return r.Status().Update(ctx, w) // want `\(not moved to the patcher: w is passed to markutil\.MarkUsed at line \d+, where its status is written at markutil\.go:\d+, a write -fix does not move with the caller's\)$`
}
