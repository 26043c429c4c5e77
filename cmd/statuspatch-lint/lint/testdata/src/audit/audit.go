// Package audit: audit-mode verdicts.
package audit

import (
	"context"

	v1 "example.com/api/v1"
	"example.com/api/v1/ac"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

type Reconciler struct {
	client.Client
}

func (r *Reconciler) direct(ctx context.Context, w *v1.Widget) {
	base := w.DeepCopyObject().(*v1.Widget)
	_ = r.Status().Patch(ctx, w, client.MergeFromWithOptions(base, client.MergeFromWithOptimisticLock{}))  // want `^optimistic: Status\(\).Patch of Widget: MergeFromWithOptimisticLock$`
	_ = r.Status().Patch(ctx, w, client.MergeFromWithOptions(base, &client.MergeFromWithOptimisticLock{})) // want `^optimistic: Status\(\).Patch of Widget: MergeFromWithOptimisticLock$`
	_ = r.Status().Patch(ctx, w, client.MergeFrom(base))                                                   // want `^blind: Status\(\).Patch of Widget: client.MergeFrom without optimistic lock \(no fix: the base base is taken at line 18, before the write of w at line 19, `
	_ = r.Status().Patch(ctx, w, client.MergeFromWithOptions(base))                                        // want `^blind: Status\(\).Patch of Widget: client.MergeFromWithOptions without`
	_ = r.Status().Patch(ctx, w, client.StrategicMergeFrom(base))                                          // want `^blind: Status\(\).Patch of Widget: client.StrategicMergeFrom without`
	_ = r.Status().Patch(ctx, w, client.StrategicMergeFrom(base, client.MergeFromWithOptimisticLock{}))    // want `^optimistic: Status\(\).Patch of Widget`
	_ = r.SubResource("status").Patch(ctx, w, client.RawPatch(types.MergePatchType, []byte(`{}`)))         // want `^unresolved: SubResource\("status"\).Patch of Widget: client.RawPatch$`
	_ = r.Status().Patch(ctx, w, client.Merge)                                                             // want `^unresolved: Status\(\).Patch of Widget: client.Merge$`
	opts := []client.MergeFromOption{client.MergeFromWithOptimisticLock{}}
	_ = r.Status().Patch(ctx, w, client.MergeFromWithOptions(base, opts...)) // want `^optimistic: `
	_ = r.Status().Create(ctx, w, &v1.Gadget{})                              // want `^unresolved: Status\(\).Create of Widget`
	// Main-resource writes are not status writes, not even in audit mode.
	_ = r.Patch(ctx, w, client.MergeFrom(base))
}

// A patch through local variables, a phi and a closure's free variable.
func (r *Reconciler) locals(ctx context.Context, w *v1.Widget, force bool) {
	p := client.MergeFromWithOptions(w.DeepCopyObject().(*v1.Widget), client.MergeFromWithOptimisticLock{})
	_ = r.Status().Patch(ctx, w, p) // want `^optimistic: `
	if force {
		p = client.MergeFrom(w)
	}
	_ = r.Status().Patch(ctx, w, p) // want `^blind: .* client.MergeFrom without optimistic lock`

	q := client.MergeFromWithOptions(w, client.MergeFromWithOptimisticLock{})
	func() {
		_ = r.Status().Patch(ctx, w, q) // want `^optimistic: `
	}()
	var z client.Patch
	set := func() { z = client.MergeFrom(w) }
	set()
	_ = r.Status().Patch(ctx, w, z) // want `^blind: `
}

// A patch built in Reconcile, passed down two helpers.
func (r *Reconciler) Reconcile(ctx context.Context, w *v1.Widget) { // want Reconcile:"why"
	r.helper1(ctx, w, client.MergeFromWithOptions(w.DeepCopyObject().(*v1.Widget), client.MergeFromWithOptimisticLock{}))
	r.mixed1(ctx, w, client.MergeFromWithOptions(w, client.MergeFromWithOptimisticLock{}))
	r.mixed1(ctx, w, client.MergeFrom(w))
}

func (r *Reconciler) helper1(ctx context.Context, w *v1.Widget, p client.Patch) { r.helper2(ctx, w, p) }

func (r *Reconciler) helper2(ctx context.Context, w *v1.Widget, p client.Patch) {
	_ = r.Status().Patch(ctx, w, p) // want `^optimistic: Status\(\).Patch of Widget: MergeFromWithOptimisticLock$`
}

// One call site optimistic, one blind: it can be blind.
func (r *Reconciler) mixed1(ctx context.Context, w *v1.Widget, p client.Patch) { r.mixed2(ctx, w, p) }

func (r *Reconciler) mixed2(ctx context.Context, w *v1.Widget, p client.Patch) {
	_ = r.Status().Patch(ctx, w, p) // want `^blind: `
}

// Exported, never called in the package: the patch is unknown.
func (r *Reconciler) WritePatch(ctx context.Context, w *v1.Widget, p client.Patch) error { // want WritePatch:"why"
	return r.Status().Patch(ctx, w, p) // want `^unresolved: Status\(\).Patch of Widget: patch from parameter p of WritePatch`
}

// Patches made by the package's own helper functions.
func optimisticPatch(o *v1.Widget) client.Patch { // want optimisticPatch:`^patch\(0: optimistic: MergeFromWithOptimisticLock\)$` optimisticPatch:`^statusOnly\[0\]$`
	return client.MergeFromWithOptions(o.DeepCopyObject().(*v1.Widget), client.MergeFromWithOptimisticLock{})
}

func blindPatch(o *v1.Widget) (client.Patch, error) { return client.MergeFrom(o), nil } // want blindPatch:`^patch\(0: blind: `

func (r *Reconciler) helpers(ctx context.Context, w *v1.Widget) {
	_ = r.Status().Patch(ctx, w, optimisticPatch(w)) // want `^optimistic: `
	p, _ := blindPatch(w)
	_ = r.Status().Patch(ctx, w, p) // want `^blind: `
}

// Update is optimistic unless the resourceVersion is cleared first.
func (r *Reconciler) updates(ctx context.Context, w, x, y *v1.Widget, g *v1.Gadget) {
	_ = r.Status().Update(ctx, w) // want `^optimistic: Status\(\).Update of Widget: Update sends the object's resourceVersion$`
	x.SetResourceVersion("")
	_ = r.Status().Update(ctx, x) // want `^blind: Status\(\).Update of Widget: resourceVersion cleared before Update$`
	y.ResourceVersion = ""
	_ = r.Status().Update(ctx, y) // want `^blind: `
	g.ObjectMeta.ResourceVersion = ""
	_ = r.SubResource("status").Update(ctx, g) // want `^blind: SubResource\("status"\).Update of Gadget`
	_ = r.Status().Update(ctx, w)              // want `^optimistic: `
}

// Server-side apply.
func (r *Reconciler) applies(ctx context.Context, w *v1.Widget, rv string) {
	_ = r.Status().Apply(ctx, ac.Widget("a", "ns").WithStatus(ac.WidgetStatus().WithReady(true))) // want `^blind: Status\(\).Apply of Widget: server-side apply of ac.Widget\(...\) without resourceVersion; add .WithResourceVersion\(obj.ResourceVersion\) \(obj: the Widget the status was computed from\), or use the patcher's apply mode \(patcher.WithWriteMode\(patcher.WriteApply\)\) \(no fix: no Widget fetched with Get before the apply configuration is built\)$`
	_ = r.Status().Apply(ctx, ac.Widget("a", "ns").WithResourceVersion(rv).WithStatus(nil))       // want `^optimistic: Status\(\).Apply of Widget: apply configuration WithResourceVersion$`
	cfg := ac.Widget("a", "ns")
	cfg.WithResourceVersion(w.ResourceVersion)
	_ = r.Status().Apply(ctx, cfg) // want `^optimistic: `

	fresh := &v1.Widget{}
	fresh.Name = "a"
	_ = r.Status().Patch(ctx, fresh, client.Apply) // want `^blind: Status\(\).Patch of Widget: client.Apply of a new object without resourceVersion; set it before the patch, or use the patcher's apply mode \(patcher.WithWriteMode\(patcher.WriteApply\)\)$`
	locked := &v1.Widget{}
	locked.SetResourceVersion(rv)
	_ = r.Status().Patch(ctx, locked, client.Apply) // want `^optimistic: Status\(\).Patch of Widget: client.Apply of an object with resourceVersion set$`
	_ = r.Status().Patch(ctx, w, client.Apply)      // want `^unresolved: Status\(\).Patch of Widget: client.Apply: object's resourceVersion unknown; set it before the patch, or use the patcher's apply mode \(patcher.WithWriteMode\(patcher.WriteApply\)\)$`
}

// Generated patchers' writes are reported in audit mode as optimistic; the
// write mode of a client from a field (made by patcher.ForManager in
// main.go, say) is not seen, and the reason says so.
func (r *Reconciler) generated(ctx context.Context, w *v1.Widget) error {
	p := v1.NewWidgetStatusPatcher(r.Client, w)
	if err := p.Retry(ctx, func(*v1.Widget) error { return nil }); err != nil { // want `^optimistic: WidgetStatusPatcher.Retry of Widget: generated patcher \(write mode not seen: the client's defaults\)$`
		return err
	}
	return p.Flush(ctx) // want `^optimistic: WidgetStatusPatcher.Flush of Widget: generated patcher \(write mode not seen: the client's defaults\)$`
}

// Allowed writes are still audited.
func (r *Reconciler) allowed(ctx context.Context, w *v1.Widget) {
	//statuspatch:allow tests the audit suffix
	_ = r.Status().Patch(ctx, w, client.MergeFrom(w)) // want `^blind: Status\(\).Patch of Widget: client.MergeFrom without optimistic lock \(allowed: tests the audit suffix\)$`
}

// Method values and writer parameters are classified the same way.
func methodValue(ctx context.Context, c client.Client, sw client.SubResourceWriter, w *v1.Widget) {
	f := c.Status().Patch
	_ = f(ctx, w, client.MergeFrom(w))                                                         // want `^blind: Status\(\).Patch of Widget`
	_ = sw.Patch(ctx, w, client.MergeFromWithOptions(w, client.MergeFromWithOptimisticLock{})) // want `^optimistic: SubResourceWriter.Patch of Widget`
}

// Interface-typed objects of unknown concrete type: the kind is the type
// written at the call site, or unknown.
func WriteObject(ctx context.Context, c client.Client, obj client.Object, base client.Object) error { // want WriteObject:"why"
	return c.Status().Patch(ctx, obj, client.MergeFrom(base)) // want `^blind: Status\(\).Patch of client.Object: client.MergeFrom without optimistic lock$`
}

func WriteAnonymous(ctx context.Context, c client.Client, obj interface{ client.Object }) error { // want WriteAnonymous:"why"
	return c.Status().Update(ctx, obj) // want `^optimistic: Status\(\).Update of an object of unknown kind: Update sends the object's resourceVersion$`
}

// Writes in closures and loops, reported in source order.
func (r *Reconciler) order(ctx context.Context, ws []*v1.Widget) {
	write := func(w *v1.Widget) {
		_ = r.Status().Patch(ctx, w, client.MergeFrom(w)) // want `^blind: `
	}
	for _, w := range ws {
		if w.Status.Ready {
			_ = r.Status().Update(ctx, w) // want `^optimistic: `
			continue
		}
		write(w)
	}
	_ = r.Status().Update(ctx, ws[0]) // want `^optimistic: `
}
