// Package fetchrename: re-reads after a moved write whose error variable,
// the if's own, cannot become the block's: the branch, or the code after
// it, still reads an outer err. Resize is kubebuilder's deploy-image
// Reconcile (project-v4-with-plugins): its status message reads the
// Deployment Update's err after the re-read. Taken already holds the
// name fetchErr; Twice re-reads twice in one block and returns the outer
// err at the end. Each re-read becomes the Fetch of the one patcher, its
// error renamed. InCall's branch gives the if's err to a write through
// the client, whose own edit holds that use: its re-read stays a Get,
// named.
package fetchrename

import (
	"context"
	"fmt"

	v1 "example.com/op/api/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

type ResizeReconciler struct {
	client.Client
}

func (r *ResizeReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	w := &v1.Widget{}
	err := r.Get(ctx, req.NamespacedName, w)
	if err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	if len(w.Status.Conditions) == 0 {
		w.Status.Ready = false
		if err = r.Status().Update(ctx, w); err != nil { // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example.com/op/internal/patchers\)$`
			return ctrl.Result{}, err
		}
		if err := r.Get(ctx, req.NamespacedName, w); err != nil {
			return ctrl.Result{}, err
		}
	}
	other := &v1.Widget{}
	if err = r.Update(ctx, other); err != nil {
		if err := r.Get(ctx, req.NamespacedName, w); err != nil {
			return ctrl.Result{}, fmt.Errorf("re-read %s: %w", req.Name, err)
		}
		w.Status.Ready = false
		w.SetCondition(metav1.Condition{Type: "Available", Status: "False", Reason: fmt.Sprintf("Resizing: %s", err)})
		if err := r.Status().Update(ctx, w); err != nil { // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example.com/op/internal/patchers\)$`
			return ctrl.Result{}, err
		}
		return ctrl.Result{}, err
	}
	w.Status.Ready = true
	if err := r.Status().Update(ctx, w); err != nil { // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example.com/op/internal/patchers\)$`
		return ctrl.Result{}, err
	}
	return ctrl.Result{}, nil
}

type TakenReconciler struct {
	client.Client
}

func (r *TakenReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	w := &v1.Widget{}
	err := r.Get(ctx, req.NamespacedName, w)
	if err != nil {
		return ctrl.Result{}, err
	}
	fetchErr := fmt.Errorf("unused: %s", w.Name)
	w.Status.Size = 1
	if err := r.Status().Update(ctx, w); err != nil { // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example.com/op/internal/patchers\)$`
		return ctrl.Result{}, err
	}
	if err = r.Update(ctx, &v1.Widget{}); err != nil {
		if err := r.Get(ctx, req.NamespacedName, w); err != nil {
			return ctrl.Result{}, err
		}
		w.Status.Size = 2
		if err := r.Status().Update(ctx, w); err != nil { // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example.com/op/internal/patchers\)$`
			return ctrl.Result{}, err
		}
		return ctrl.Result{}, fmt.Errorf("%w, %w", err, fetchErr)
	}
	return ctrl.Result{}, nil
}

type TwiceReconciler struct {
	client.Client
}

func (r *TwiceReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	w := &v1.Widget{}
	err := r.Get(ctx, req.NamespacedName, w)
	if client.IgnoreNotFound(err) != nil {
		return ctrl.Result{}, err
	}
	w.Status.Size = 1
	if err := r.Status().Update(ctx, w); err != nil { // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example.com/op/internal/patchers\)$`
		return ctrl.Result{}, err
	}
	if err := r.Get(ctx, req.NamespacedName, w); err != nil {
		return ctrl.Result{}, err
	}
	w.Status.Size = 2
	if err := r.Status().Update(ctx, w); err != nil { // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example.com/op/internal/patchers\)$`
		return ctrl.Result{}, err
	}
	if err := r.Get(ctx, req.NamespacedName, w); err != nil {
		return ctrl.Result{}, err
	}
	w.Status.Size = 3
	if err := r.Status().Update(ctx, w); err != nil { // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example.com/op/internal/patchers\)$`
		return ctrl.Result{}, err
	}
	return ctrl.Result{}, err
}

type InCallReconciler struct {
	client.Client
}

func (r *InCallReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	w := &v1.Widget{}
	err := r.Get(ctx, req.NamespacedName, w)
	if err != nil {
		return ctrl.Result{}, err
	}
	w.Status.Size = 1
	if err := r.Status().Update(ctx, w); err != nil { // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example.com/op/internal/patchers\)$`
		return ctrl.Result{}, err
	}
	if err := r.Get(ctx, req.NamespacedName, w); err != nil {
		return ctrl.Result{}, r.Status().Update(ctx, failed(w, err)) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example.com/op/internal/patchers\) \(not moved to the patcher: the object failed\(w, err\) is not a variable\)$`
	}
	w.Status.Size = 2
	if err := r.Status().Update(ctx, w); err != nil { // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example.com/op/internal/patchers\) \(the re-read of w at line 134 stays a cached Get \(its error variable err would shadow, or be read before it is set again, and cannot be renamed: the call r.Status\(\).Update at line 135 takes it\): make it FetchWidgetStatusPatcher by hand, which reads again through the API reader when the cache is behind this process's last write\)$`
		return ctrl.Result{}, err
	}
	return ctrl.Result{}, err
}

func failed(w *v1.Widget, err error) *v1.Widget {
	w.Status.Ready = err == nil
	return w
}

// s117's adversary: two re-reads renamed in one case clause, and in one
// if block where the first's error is err and the second's err2 (both
// outer ones read at the end): each var declaration has a name of its
// own (at first both were fetchErr2, which did not compile).
func (r *ResizeReconciler) caseSpanned(ctx context.Context, req ctrl.Request, mode int) (ctrl.Result, error) {
	w := &v1.Widget{}
	err := r.Get(ctx, req.NamespacedName, w)
	if err != nil {
		return ctrl.Result{}, err
	}
	w.Status.Size = 1
	if err := r.Status().Update(ctx, w); err != nil { // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example.com/op/internal/patchers\)$`
		return ctrl.Result{}, err
	}
	switch mode {
	case 1:
		if err := r.Get(ctx, req.NamespacedName, w); err != nil {
			return ctrl.Result{}, err
		}
		w.Status.Size = 7
		if err := r.Get(ctx, req.NamespacedName, w); err != nil {
			return ctrl.Result{}, err
		}
	}
	w.Status.Ready = true
	if err := r.Status().Update(ctx, w); err != nil { // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example.com/op/internal/patchers\)$`
		return ctrl.Result{}, err
	}
	return ctrl.Result{}, err
}

func (r *ResizeReconciler) mixedNames(ctx context.Context, req ctrl.Request, mode int) (ctrl.Result, error) {
	w := &v1.Widget{}
	err := r.Get(ctx, req.NamespacedName, w)
	if err != nil {
		return ctrl.Result{}, err
	}
	err2 := r.Update(ctx, &v1.Widget{})
	w.Status.Size = 1
	if err := r.Status().Update(ctx, w); err != nil { // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example.com/op/internal/patchers\)$`
		return ctrl.Result{}, err
	}
	if mode == 1 {
		if err := r.Get(ctx, req.NamespacedName, w); err != nil {
			return ctrl.Result{}, err
		}
		w.Status.Size = 7
		if err2 := r.Get(ctx, req.NamespacedName, w); err2 != nil {
			return ctrl.Result{}, err2
		}
	}
	w.Status.Ready = true
	if err := r.Status().Update(ctx, w); err != nil { // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example.com/op/internal/patchers\)$`
		return ctrl.Result{}, err
	}
	if err2 != nil {
		return ctrl.Result{}, err2
	}
	return ctrl.Result{}, err
}

// s117's adversary: the outer err is read without its name after the
// re-read, by a bare return of the named result (namedWarn), a deferred
// literal (deferReadsErr) or a literal called at the end
// (closureReadsErr): a Fetch assigning it would drop the warning, so the
// re-read's error is renamed (it was err :=, the warning lost).
func (r *ResizeReconciler) namedWarn(ctx context.Context, req ctrl.Request) (res ctrl.Result, err error) {
	w := &v1.Widget{}
	if err := r.Get(ctx, req.NamespacedName, w); err != nil {
		return res, err
	}
	if w.Spec.Size > 3 {
		err = fmt.Errorf("too big")
	}
	w.Status.Size = 1
	if err := r.Status().Update(ctx, w); err != nil { // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example.com/op/internal/patchers\)$`
		return res, err
	}
	if err := r.Get(ctx, req.NamespacedName, w); err != nil {
		return res, err
	}
	w.Status.Size = 2
	if err := r.Status().Update(ctx, w); err != nil { // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example.com/op/internal/patchers\)$`
		return res, err
	}
	return
}

func (r *ResizeReconciler) deferReadsErr(ctx context.Context, req ctrl.Request) error {
	var err error
	defer func() {
		if err != nil {
			fmt.Println("warning:", err)
		}
	}()
	w := &v1.Widget{}
	if err := r.Get(ctx, req.NamespacedName, w); err != nil {
		return err
	}
	if w.Spec.Size > 3 {
		err = fmt.Errorf("too big")
	}
	w.Status.Size = 1
	if err := r.Status().Update(ctx, w); err != nil { // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example.com/op/internal/patchers\)$`
		return err
	}
	if err := r.Get(ctx, req.NamespacedName, w); err != nil {
		return err
	}
	w.Status.Size = 2
	return r.Status().Update(ctx, w) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example.com/op/internal/patchers\)$`
}

func (r *ResizeReconciler) closureReadsErr(ctx context.Context, req ctrl.Request) error {
	var err error
	report := func() error { return err }
	w := &v1.Widget{}
	if err := r.Get(ctx, req.NamespacedName, w); err != nil {
		return err
	}
	if w.Spec.Size > 3 {
		err = fmt.Errorf("too big")
	}
	w.Status.Size = 1
	if err := r.Status().Update(ctx, w); err != nil { // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example.com/op/internal/patchers\)$`
		return err
	}
	if err := r.Get(ctx, req.NamespacedName, w); err != nil {
		return err
	}
	w.Status.Size = 2
	if err := r.Status().Update(ctx, w); err != nil { // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example.com/op/internal/patchers\)$`
		return err
	}
	return report()
}

// s117's adversary: the re-read's check lets a NotFound go on
// (client.IgnoreNotFound): a Fetch there would leave the patcher nil and
// the next line, obj = p.Object(), would panic. The Get stays, named.
func (r *ResizeReconciler) ignoreNotFound(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	w := &v1.Widget{}
	if err := r.Get(ctx, req.NamespacedName, w); err != nil {
		return ctrl.Result{}, err
	}
	w.Status.Size = 1
	if err := r.Status().Update(ctx, w); err != nil { // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example.com/op/internal/patchers\)$`
		return ctrl.Result{}, err
	}
	if err := r.Get(ctx, req.NamespacedName, w); client.IgnoreNotFound(err) != nil {
		return ctrl.Result{}, err
	}
	w.Status.Size = 2
	if err := r.Status().Update(ctx, w); err != nil { // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example.com/op/internal/patchers\) \(the re-read of w at line 298 stays a cached Get \(its error check is not err != nil, and a failed Fetch would leave the patcher nil where the code goes on\)`
		return ctrl.Result{}, err
	}
	return ctrl.Result{}, nil
}
