// Package migrateacross: the object is handed to functions of other
// packages between its read and its status write. -fix follows it into
// them by their packages' facts and moves the write where every use only
// reads the object or changes its status; else the write stays, with why.
package migrateacross

import (
	"context"
	v1 "example.com/op/api/v1"
	"example.com/op/objutil"
	"example.com/op/specutil"
	"fmt"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"
	"k8s.io/klog/v2"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

type Reconciler struct {
	client.Client
	owner *v1.Widget
}

// Read by functions of another package, directly and through one of its own.
func (r *Reconciler) reads(ctx context.Context, key client.ObjectKey) (string, error) {
	w := &v1.Widget{}
	if err := r.Get(ctx, key, w); err != nil {
		return "", err
	}
	label := objutil.Label(w) + objutil.Read(w) + objutil.Key(w).Name + objutil.Describer{}.Describe(w) + fmt.Sprint(specutil.Size(w))
	w.Status.Ready = true
	return label, r.Status().Update(ctx, w) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example.com/op/internal/patchers\)$`
}

// Its status changed by a function of another package.
func (r *Reconciler) statusElsewhere(ctx context.Context, key client.ObjectKey) error {
	w := &v1.Widget{}
	if err := r.Get(ctx, key, w); err != nil {
		return err
	}
	objutil.MarkReady(w)
	return r.Status().Update(ctx, w) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example.com/op/internal/patchers\)$`
}

// Read by klog and apimachinery, which have no facts (listed readers).
func (r *Reconciler) logged(ctx context.Context, key client.ObjectKey) error {
	w := &v1.Widget{}
	if err := r.Get(ctx, key, w); err != nil {
		return err
	}
	_, _ = klog.KObj(w), metav1.NewControllerRef(w, "Widget")
	w.Status.Ready = metav1.IsControlledBy(w, r.owner) || metav1.IsControlledBy(r.owner, w)
	return r.Status().Update(ctx, w) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example.com/op/internal/patchers\)$`
}

// Its spec changed by a function of another package.
func (r *Reconciler) resized(ctx context.Context, key client.ObjectKey) error {
	w := &v1.Widget{}
	if err := r.Get(ctx, key, w); err != nil {
		return err
	}
	objutil.Resize(w)
	w.Status.Ready = true
	return r.Status().Update(ctx, w) // want `\(not moved to the patcher: w is passed to objutil.Resize at line 62, where w.Spec is changed at objutil.go:24: the patcher writes only the status`
}

// Handed on, in that package, to a function that changes its spec.
func (r *Reconciler) forwarded(ctx context.Context, key client.ObjectKey) error {
	w := &v1.Widget{}
	if err := r.Get(ctx, key, w); err != nil {
		return err
	}
	objutil.Forward(w)
	return r.Status().Update(ctx, w) // want `\(not moved to the patcher: w is passed to objutil.Forward at line 73, where w is passed to Resize at objutil.go:27, where w.Spec is changed at objutil.go:24: the patcher writes only the status`
}

// Stored, or asserted back from an interface and changed.
func (r *Reconciler) kept(ctx context.Context, key client.ObjectKey) error {
	w := &v1.Widget{}
	if err := r.Get(ctx, key, w); err != nil {
		return err
	}
	objutil.Keep(w)
	return r.Status().Update(ctx, w) // want `\(not moved to the patcher: w is passed to objutil.Keep at line 83, where w is passed on or aliased at objutil.go:32: it may change more than its status\)$`
}

func (r *Reconciler) converted(ctx context.Context, key client.ObjectKey) error {
	w := &v1.Widget{}
	if err := r.Get(ctx, key, w); err != nil {
		return err
	}
	objutil.Convert(w)
	return r.Status().Update(ctx, w) // want `\(not moved to the patcher: w is passed to objutil.Convert at line 92, where obj is passed on or aliased at objutil.go:36: it may change more than its status\)$`
}

// Handed to a function of the package in another file, which changes its
// spec: the finding names that file.
func (r *Reconciler) bumped(ctx context.Context, key client.ObjectKey) error {
	w := &v1.Widget{}
	if err := r.Get(ctx, key, w); err != nil {
		return err
	}
	bump(w)
	return r.Status().Update(ctx, w) // want `\(not moved to the patcher: w is passed to bump at line 103, where w.Spec is changed at other.go:6: the patcher writes only the status \(Flush returns patcher.ErrNonStatusChange\): make that change on a DeepCopy\(\) of the object, or keep this write\)$`
}

// Compared with nil in another package's function: a read.
func (r *Reconciler) compared(ctx context.Context, key client.ObjectKey) error {
	w := &v1.Widget{}
	if err := r.Get(ctx, key, w); err != nil {
		return err
	}
	w.Status.Ready = objutil.Present(w)
	return r.Status().Update(ctx, w) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example.com/op/internal/patchers\)$`
}

// Passed to a function value: not followed.
func (r *Reconciler) dynamic(ctx context.Context, key client.ObjectKey, check func(*v1.Widget) bool) error {
	w := &v1.Widget{}
	if err := r.Get(ctx, key, w); err != nil {
		return err
	}
	w.Status.Ready = check(w)
	return r.Status().Update(ctx, w) // want `\(not moved to the patcher: w is passed to the function value check at line 123, which is not followed: it may change more than its status\)$`
}

// Handed to a reader of another package that reads the spec through a
// local (spark-operator's util.GetDriverPodName(app)): moved.
func (r *Reconciler) driverPod(ctx context.Context, key client.ObjectKey) error {
	w := &v1.Widget{}
	if err := r.Get(ctx, key, w); err != nil {
		return err
	}
	w.Status.Ready = objutil.DriverPodName(w) != ""
	return r.Status().Update(ctx, w) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example.com/op/internal/patchers\)$`
}

// Its spec's IntOrString given by address to intstr's reader (lws's
// rollingUpdateParameters): moved.
func (r *Reconciler) surge(ctx context.Context, key client.ObjectKey) error {
	w := &v1.Widget{}
	if err := r.Get(ctx, key, w); err != nil {
		return err
	}
	n, err := intstr.GetScaledValueFromIntOrPercent(&w.Spec.MaxSurge, 10, true)
	if err != nil {
		return err
	}
	w.Status.Size = n
	return r.Status().Update(ctx, w) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example.com/op/internal/patchers\)$`
}
