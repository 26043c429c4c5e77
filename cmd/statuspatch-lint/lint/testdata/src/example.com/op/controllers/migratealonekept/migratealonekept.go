// Package migratealonekept calls markutil's MarkReady, whose write only
// the whole module moves, beside a deferred write of its own that the
// whole module keeps: its status decided from the status read after the
// defer, which uses the object before its write (helper T's
// perpackage-reason-false). Analyzed alone, the reason is what keeps
// the write in the whole module too; at ae27bc6 it said "statuspatch-lint
// -fix on the whole module moves them together", and the module's run
// kept both. A caller with nothing else keeping it says the module moves
// them, unless another caller keeps the helper's write.
package migratealonekept

import (
	"context"
	"errors"
	"sync/atomic"

	v1 "example.com/op/api/v1"
	"example.com/op/markutil"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

var tokens atomic.Int64

type R struct {
	client.Client
}

func (r *R) Reconcile(ctx context.Context, req ctrl.Request) (_ ctrl.Result, retErr error) {
	w := &v1.Widget{}
	if err := r.Get(ctx, req.NamespacedName, w); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	if len(w.Spec.Roles) == 0 {
		return ctrl.Result{}, markutil.MarkReady(ctx, r.Client, w)
	}
	base := w.DeepCopy()
	defer func() {
		meta.SetStatusCondition(&w.Status.Conditions, metav1.Condition{Type: "Ready", Status: "True", Reason: "Reconciled"})
		retErr = errors.Join(retErr, r.Status().Patch(ctx, w, client.MergeFrom(base))) // want `\(not moved to the patcher: its status is decided from w's status read at line 44, before the deferred write: .*; w is changed or read again at line 36, outside the decision; make the patcher after the read`
	}()
	if w.Status.Size == 0 {
		w.Status.Size = int(tokens.Add(1))
	}
	return ctrl.Result{}, nil
}

// Nothing here keeps the write from moving with MarkReady's.
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
