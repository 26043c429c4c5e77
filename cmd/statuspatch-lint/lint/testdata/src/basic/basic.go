// Package basic: default-mode findings and non-findings.
package basic

import (
	"context"

	v1 "example.com/api/v1"
	"example.com/api/v1/ac"
	crclient "sigs.k8s.io/controller-runtime/pkg/client"
)

// Reconciler embeds the client, as kubebuilder scaffolds it.
type Reconciler struct {
	crclient.Client
	statusWriter crclient.SubResourceWriter
	sub          crclient.SubResourceClient
}

func (r *Reconciler) Reconcile(ctx context.Context, w *v1.Widget, g *v1.Gadget) error { // want Reconcile:"why"
	base := w.DeepCopyObject().(*v1.Widget)

	// Embedded client, aliased client package.
	if err := r.Status().Patch(ctx, w, crclient.MergeFrom(base)); err != nil { // want `handwritten status write to Widget: use WidgetStatusPatcher \(example.com/api/v1\)`
		return err
	}
	_ = r.Status().Update(ctx, w)                                                                                 // want `handwritten status write to Widget: use WidgetStatusPatcher`
	_ = r.Client.Status().Patch(ctx, g, crclient.MergeFromWithOptions(g, crclient.MergeFromWithOptimisticLock{})) // want `handwritten status write to Gadget: generate a GadgetStatusPatcher with statuspatch-gen`
	_ = r.Status().Apply(ctx, ac.Widget("a", "b"))                                                                // want `handwritten status write to Widget: use WidgetStatusPatcher`
	_ = r.Status().Create(ctx, w, g)                                                                              // want `handwritten status write to Widget`
	_ = r.SubResource("status").Patch(ctx, g, crclient.MergeFrom(g))                                              // want `handwritten status write to Gadget`
	_ = r.SubResource("status").Update(ctx, g)                                                                    // want `handwritten status write to Gadget`

	// Through a field of type SubResourceWriter / SubResourceClient.
	_ = r.statusWriter.Update(ctx, w) // want `handwritten status write to Widget`
	_ = r.sub.Update(ctx, w)          // want `handwritten status write to Widget`

	// Main resource writes are not status writes, even blind ones.
	_ = r.Patch(ctx, w, crclient.MergeFrom(base))
	_ = r.Update(ctx, w)
	w.Finalizers = append(w.Finalizers, "example.com/finalizer")
	_ = r.Client.Patch(ctx, w, crclient.MergeFrom(base))
	_ = r.Create(ctx, g)

	// Other subresources are not status.
	_ = r.SubResource("scale").Update(ctx, w)
	scale := r.SubResource("scale")
	_ = scale.Patch(ctx, w, crclient.MergeFrom(base))
	var reader crclient.SubResourceReader = r.SubResource("status")
	_ = reader.Get(ctx, w, g)
	return nil
}

// Through a parameter.
func writeParam(ctx context.Context, sw crclient.SubResourceWriter, sc crclient.SubResourceClient, w *v1.Widget) {
	_ = sw.Patch(ctx, w, crclient.MergeFrom(w)) // want `handwritten status write to Widget`
	_ = sc.Update(ctx, w)                       // want `handwritten status write to Widget`
}

// StatusWriter is an alias of SubResourceWriter.
func writeAlias(ctx context.Context, sw crclient.StatusWriter, w *v1.Widget) {
	_ = sw.Update(ctx, w) // want `handwritten status write to Widget`
}

// Method values.
func methodValues(ctx context.Context, c crclient.Client, w *v1.Widget) {
	sw := c.Status()
	_ = sw.Patch(ctx, w, crclient.MergeFrom(w)) // want `handwritten status write to Widget`
	f := c.Status().Patch
	_ = f(ctx, w, crclient.MergeFrom(w)) // want `handwritten status write to Widget`
	u := c.SubResource("status").Update
	_ = u(ctx, w) // want `handwritten status write to Widget`
	s := c.SubResource("scale").Update
	_ = s(ctx, w)
	m := c.Update
	_ = m(ctx, w)
}

// Inside a closure.
func closure(ctx context.Context, c crclient.Client, w *v1.Widget) error {
	retry := func(fn func() error) error { return fn() }
	return retry(func() error {
		return c.Status().Update(ctx, w) // want `handwritten status write to Widget`
	})
}

// An interface-typed object is named by the concrete type passed in.
func viaObject(ctx context.Context, c crclient.Client, obj crclient.Object) error {
	return c.Status().Update(ctx, obj) // want `handwritten status write to Gadget`
}

func callViaObject(ctx context.Context, c crclient.Client) error {
	return viaObject(ctx, c, &v1.Gadget{})
}

// Allow directives.
func allowed(ctx context.Context, c crclient.Client, w *v1.Widget) {
	//statuspatch:allow one-shot migration, no concurrent writer
	_ = c.Status().Update(ctx, w)
	_ = c.Status().Update(ctx, w) //statuspatch:allow same line works too
	// statuspatch:allow a space after the slashes is accepted
	_ = c.Status().Update(ctx, w)

	//statuspatch:allow // want `statuspatch:allow needs a reason`
	_ = c.Status().Update(ctx, w) // want `handwritten status write to Widget`

	//statuspatch:allowed is not the directive
	_ = c.Status().Update(ctx, w) // want `handwritten status write to Widget`
}

// An interface-typed object whose concrete type is not known is named by the
// type written at the call site (client.Object is an alias of an interface
// of another package), and no <Kind>StatusPatcher is suggested for it.
func WriteObject(ctx context.Context, c crclient.Client, obj crclient.Object, base crclient.Object) error { // want WriteObject:"why"
	return c.Status().Patch(ctx, obj, crclient.MergeFrom(base)) // want `^handwritten status write to client.Object \(an interface\): use the generated status patcher of the object's concrete type$`
}

// statusObject is an interface of this package: named unqualified.
type statusObject interface {
	crclient.Object
	IsReady() bool
}

func WriteStatusObject(ctx context.Context, c crclient.Client, obj statusObject) error { // want WriteStatusObject:"why"
	return c.Status().Update(ctx, obj) // want `^handwritten status write to statusObject \(an interface\): use the generated status patcher of the object's concrete type$`
}

// An anonymous interface has no name to show.
func WriteAnonymous(ctx context.Context, c crclient.Client, obj interface{ crclient.Object }) error { // want WriteAnonymous:"why"
	return c.Status().Update(ctx, obj) // want `^handwritten status write to an object of unknown kind: use the generated status patcher of the object's concrete type$`
}

// Ingress starts with a vowel: the suggestion says "an".
type Ingress struct{ v1.Gadget }

func (r *Reconciler) vowel(ctx context.Context, i *Ingress) error {
	return r.Status().Update(ctx, i) // want `handwritten status write to Ingress: generate an IngressStatusPatcher with statuspatch-gen`
}
