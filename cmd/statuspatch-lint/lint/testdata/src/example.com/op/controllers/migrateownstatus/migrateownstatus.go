// Package migrateownstatus: a kubebuilder reconciler (the client
// embedded, a Scheme) that defines its own Status(), writing through a
// field owner and counting its writes (R's fault 5 of s103). r.Status()
// is that method, not the embedded client's: the write stays, naming it.
// A write through r.Client.Status() is the client's and moves.
package migrateownstatus

import (
	"context"
	"sync/atomic"

	v1 "example.com/op/api/v1"
	"k8s.io/apimachinery/pkg/runtime"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

var statusWrites atomic.Int64

type WidgetReconciler struct {
	client.Client
	Scheme *runtime.Scheme
}

// Status counts the status writes (a field owner's wrapper in R's repro).
func (r *WidgetReconciler) Status() client.SubResourceWriter {
	statusWrites.Add(1)
	return r.Client.Status()
}

func (r *WidgetReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	w := &v1.Widget{}
	if err := r.Get(ctx, req.NamespacedName, w); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	w.Status.Ready = true
	if err := r.Status().Update(ctx, w); err != nil { // want `\(not moved to the patcher: r\.Status is WidgetReconciler.s own method \(declared at line 26\), not the Status of the client it embeds: the write goes through it, and a patcher made with r\.Client would not \(write through r\.Client\.Status\(\) for -fix to move it, if what r\.Status adds is not needed\)\)$`
		return ctrl.Result{}, err
	}
	return ctrl.Result{}, nil
}

// direct writes through the embedded client's own Status.
func (r *WidgetReconciler) direct(ctx context.Context, req ctrl.Request) error {
	w := &v1.Widget{}
	if err := r.Get(ctx, req.NamespacedName, w); err != nil {
		return err
	}
	w.Status.Size++
	return r.Client.Status().Update(ctx, w) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example.com/op/internal/patchers\)$`
}

// Plain embeds the client and defines no Status: r.Status() is the
// client's, and the write moves (kubebuilder's scaffold).
type Plain struct {
	client.Client
	Scheme *runtime.Scheme
}

func (r *Plain) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	w := &v1.Widget{}
	if err := r.Get(ctx, req.NamespacedName, w); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	w.Status.Ready = true
	if err := r.Status().Update(ctx, w); err != nil { // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example.com/op/internal/patchers\)$`
		return ctrl.Result{}, err
	}
	return ctrl.Result{}, nil
}
