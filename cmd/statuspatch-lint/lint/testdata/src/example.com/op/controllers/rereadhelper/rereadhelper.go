// Package rereadhelper: the tutorial's re-fetch ("re-fetch to avoid 'the
// object has been modified'") followed by a helper of this package (issue
// 80). A helper that writes the status takes the patcher of its caller's
// own writes, made before the re-Get: at 867e71de the re-Get stayed a Get
// (no write of the caller after it) and the helper was given that
// patcher, its base older than the re-read (written). The re-Get now
// becomes its Fetch; where it cannot (ignored), the helper's write stays,
// naming the read, through a chain of helpers too (chainIgnored). A
// helper changing the spec as well stays (specWritten).
package rereadhelper

import (
	"context"

	v1 "example.com/op/api/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

type R struct {
	client.Client
}

// markReady changes only the status.
func markReady(w *v1.Widget) { w.Status.Ready = true } // want markReady:`^statusOnly\[0\]$`

// MarkSized changes only the status, exported.
func MarkSized(w *v1.Widget, n int) { w.Status.Size = n } // want MarkSized:`^statusOnly\[0\]$`

// touchSpec changes the spec too.
func touchSpec(w *v1.Widget) {
	w.Spec.Size++
	w.Status.Ready = true
}

// changed: the write follows the helper, after the re-Get.
func (r *R) changed(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	w := &v1.Widget{}
	if err := r.Get(ctx, req.NamespacedName, w); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	w.Status.Size = 1
	if err := r.Status().Update(ctx, w); err != nil { // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example\.com/op/internal/patchers\)$`
		return ctrl.Result{}, err
	}
	// re-fetch to avoid 'the object has been modified'
	if err := r.Get(ctx, req.NamespacedName, w); err != nil {
		return ctrl.Result{}, err
	}
	markReady(w)
	MarkSized(w, 2)
	return ctrl.Result{}, r.Status().Update(ctx, w) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example\.com/op/internal/patchers\)$`
}

// setReady changes only the status and writes it.
func (r *R) setReady(ctx context.Context, w *v1.Widget) error {
	w.Status.Ready = true
	return r.Status().Update(ctx, w) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example\.com/op/internal/patchers\)$`
}

// written: the helper writes, and no write of the caller follows the
// re-Get: the re-Get becomes the Fetch of the patcher the helper takes.
func (r *R) written(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	w := &v1.Widget{}
	if err := r.Get(ctx, req.NamespacedName, w); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	w.Status.Size = 1
	if err := r.Status().Update(ctx, w); err != nil { // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example\.com/op/internal/patchers\)$`
		return ctrl.Result{}, err
	}
	// re-fetch to avoid 'the object has been modified'
	if err := r.Get(ctx, req.NamespacedName, w); err != nil {
		return ctrl.Result{}, err
	}
	return ctrl.Result{}, r.setReady(ctx, w)
}

// spec: the helper changes the spec too, which the handwritten Update of
// the status subresource never sent: the writes move, that change left
// unsent as before (patcher.WithNonStatusChangesUnsent).
func (r *R) spec(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	w := &v1.Widget{}
	if err := r.Get(ctx, req.NamespacedName, w); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	w.Status.Size = 1
	if err := r.Status().Update(ctx, w); err != nil { // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example\.com/op/internal/patchers\)$`
		return ctrl.Result{}, err
	}
	if err := r.Get(ctx, req.NamespacedName, w); err != nil {
		return ctrl.Result{}, err
	}
	touchSpec(w)
	return ctrl.Result{}, r.Status().Update(ctx, w) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example\.com/op/internal/patchers\)$`
}

// setSized changes only the status and writes it.
func (r *R) setSized(ctx context.Context, w *v1.Widget) error {
	w.Status.Size = 3
	return r.Status().Update(ctx, w) // want `not moved to the patcher: w is a parameter of setSized: its caller at line 116 reads w again with Get at line 115, after the patcher of its own writes is made, and that read stays a Get: the patcher it would pass has its base from before it, and the helper's Flush would conflict where its handwritten write, through w as re-read, was stored\)$`
}

// ignored: the re-Get's error is ignored, so it stays a Get; the helper,
// given the patcher made before it, would flush a base the Get left behind.
func (r *R) ignored(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	w := &v1.Widget{}
	if err := r.Get(ctx, req.NamespacedName, w); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	w.Status.Size = 1
	if err := r.Status().Update(ctx, w); err != nil { // want `\(the re-read of w at line 115 stays a cached Get \(its error is ignored\): make it FetchWidgetStatusPatcher by hand`
		return ctrl.Result{}, err
	}
	_ = r.Get(ctx, req.NamespacedName, w)
	return ctrl.Result{}, r.setSized(ctx, w)
}

// setSpecReady changes the spec too, and writes the status.
func (r *R) setSpecReady(ctx context.Context, w *v1.Widget) error {
	w.Spec.Size = 3
	w.Status.Ready = true
	return r.Status().Update(ctx, w) // want `not moved to the patcher: w is a parameter of setSpecReady: w\.Spec is changed at line 121: the patcher writes only the status`
}

// specWritten: the helper after the re-Get changes the spec as well.
func (r *R) specWritten(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	w := &v1.Widget{}
	if err := r.Get(ctx, req.NamespacedName, w); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	w.Status.Size = 1
	if err := r.Status().Update(ctx, w); err != nil { // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example\.com/op/internal/patchers\)$`
		return ctrl.Result{}, err
	}
	if err := r.Get(ctx, req.NamespacedName, w); err != nil {
		return ctrl.Result{}, err
	}
	return ctrl.Result{}, r.setSpecReady(ctx, w)
}

// setObserved changes only the status and writes it.
func (r *R) setObserved(ctx context.Context, w *v1.Widget) error {
	w.Status.Size = 4
	return r.Status().Update(ctx, w) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example\.com/op/internal/patchers\)$`
}

// deferred: a deferred failure write too, which reads the patcher's
// variable when it runs: the Fetch assigns it, into the object w points to.
func (r *R) deferred(ctx context.Context, req ctrl.Request) (_ ctrl.Result, retErr error) {
	w := &v1.Widget{}
	if err := r.Get(ctx, req.NamespacedName, w); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	defer func() {
		if retErr != nil {
			w.Status.Ready = false
			_ = r.Status().Update(ctx, w) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example\.com/op/internal/patchers\)$`
		}
	}()
	w.Status.Size = 1
	if err := r.Status().Update(ctx, w); err != nil { // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example\.com/op/internal/patchers\)$`
		return ctrl.Result{}, err
	}
	if err := r.Get(ctx, req.NamespacedName, w); err != nil {
		return ctrl.Result{}, err
	}
	return ctrl.Result{}, r.setObserved(ctx, w)
}

// refetch reads the widget again.
func (r *R) refetch(ctx context.Context, key client.ObjectKey, w *v1.Widget) error { // want refetch:`^statusOnly\[2\]$`
	return r.Get(ctx, key, w)
}

// setAudited changes only the status and writes it.
func (r *R) setAudited(ctx context.Context, w *v1.Widget) error {
	w.Status.Size = 5
	return r.Status().Update(ctx, w) // want `not moved to the patcher: w is a parameter of setAudited: its caller at line 196 reads w again by r\.refetch at line 193, which reads it with Get at line 173, after the patcher of its own writes is made, and that read stays a Get`
}

// viaRefetch: the re-read is a function of the package's Get, which no
// Fetch replaces: setAudited's write stays, naming it.
func (r *R) viaRefetch(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	w := &v1.Widget{}
	if err := r.Get(ctx, req.NamespacedName, w); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	w.Status.Size = 1
	if err := r.Status().Update(ctx, w); err != nil { // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example\.com/op/internal/patchers\)$`
		return ctrl.Result{}, err
	}
	if err := r.refetch(ctx, req.NamespacedName, w); err != nil {
		return ctrl.Result{}, err
	}
	return ctrl.Result{}, r.setAudited(ctx, w)
}

// setChainedLeaf changes only the status and writes it.
func (r *R) setChainedLeaf(ctx context.Context, w *v1.Widget) error {
	w.Status.Size = 6
	return r.Status().Update(ctx, w) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example\.com/op/internal/patchers\)$`
}

// setChained hands the widget on to the helper that writes.
func (r *R) setChained(ctx context.Context, w *v1.Widget) error {
	return r.setChainedLeaf(ctx, w)
}

// chained: the helper after the re-Get writes through a function of its
// own: the re-Get becomes the Fetch of the patcher the chain takes.
func (r *R) chained(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	w := &v1.Widget{}
	if err := r.Get(ctx, req.NamespacedName, w); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	w.Status.Size = 1
	if err := r.Status().Update(ctx, w); err != nil { // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example\.com/op/internal/patchers\)$`
		return ctrl.Result{}, err
	}
	if err := r.Get(ctx, req.NamespacedName, w); err != nil {
		return ctrl.Result{}, err
	}
	return ctrl.Result{}, r.setChained(ctx, w)
}

// setIgnoredLeaf changes only the status and writes it.
func (r *R) setIgnoredLeaf(ctx context.Context, w *v1.Widget) error {
	w.Status.Size = 7
	return r.Status().Update(ctx, w) // want `not moved to the patcher: w is a parameter of setIgnoredLeaf: its caller at line 235 hands on w, a parameter of setIgnored, and its caller at line 252 reads w again with Get at line 251, after the patcher of its own writes is made, and that read stays a Get`
}

// setIgnored hands the widget on to the helper that writes.
func (r *R) setIgnored(ctx context.Context, w *v1.Widget) error {
	return r.setIgnoredLeaf(ctx, w)
}

// chainIgnored: as chained, the re-Get's error ignored: it stays a Get,
// and the chain, given the patcher made before it, would flush a base
// the Get left behind; its write stays, naming the read (at 83b73314 it
// moved, silently).
func (r *R) chainIgnored(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	w := &v1.Widget{}
	if err := r.Get(ctx, req.NamespacedName, w); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	w.Status.Size = 1
	if err := r.Status().Update(ctx, w); err != nil { // want `\(the re-read of w at line 251 stays a cached Get \(its error is ignored\): make it FetchWidgetStatusPatcher by hand`
		return ctrl.Result{}, err
	}
	_ = r.Get(ctx, req.NamespacedName, w)
	return ctrl.Result{}, r.setIgnored(ctx, w)
}

// setExclusive changes only the status and writes it.
func (r *R) setExclusive(ctx context.Context, w *v1.Widget) error {
	w.Status.Size = 8
	return r.Status().Update(ctx, w) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example\.com/op/internal/patchers\)$`
}

// exclusive: the ignored re-Get and the helper are on exclusive paths:
// no path runs the Get before the helper, which the patcher of the
// caller's own writes, made at the first Get, serves as it is.
func (r *R) exclusive(ctx context.Context, req ctrl.Request, again bool) (ctrl.Result, error) {
	w := &v1.Widget{}
	if err := r.Get(ctx, req.NamespacedName, w); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	w.Status.Size = 1
	if err := r.Status().Update(ctx, w); err != nil { // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example\.com/op/internal/patchers\)$`
		return ctrl.Result{}, err
	}
	if again {
		_ = r.Get(ctx, req.NamespacedName, w)
		return ctrl.Result{}, nil
	}
	return ctrl.Result{}, r.setExclusive(ctx, w)
}

// setExclusiveChecked changes only the status and writes it.
func (r *R) setExclusiveChecked(ctx context.Context, w *v1.Widget) error {
	w.Status.Size = 9
	return r.Status().Update(ctx, w) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example\.com/op/internal/patchers\)$`
}

// exclusiveChecked: as exclusive, the re-Get's error checked: no path
// runs it before the helper either, and no write follows it on its own:
// it stays a Get, and the helper takes the patcher made at the first.
func (r *R) exclusiveChecked(ctx context.Context, req ctrl.Request, again bool) (ctrl.Result, error) {
	w := &v1.Widget{}
	if err := r.Get(ctx, req.NamespacedName, w); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	w.Status.Size = 1
	if err := r.Status().Update(ctx, w); err != nil { // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example\.com/op/internal/patchers\)$`
		return ctrl.Result{}, err
	}
	if again {
		if err := r.Get(ctx, req.NamespacedName, w); err != nil {
			return ctrl.Result{}, err
		}
		return ctrl.Result{}, nil
	}
	return ctrl.Result{}, r.setExclusiveChecked(ctx, w)
}
