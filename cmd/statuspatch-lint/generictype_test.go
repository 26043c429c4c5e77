package main

import (
	"strings"
	"testing"
)

// A generic reconciler TYPE of a package of its own (issue 80, U2's
// project D): its method reads its object of the type's parameter, takes
// its base and patches the status. It was kept as "an object of unknown
// kind", no line or fact named. Under the whole-module driver its base
// becomes wpatch.ForType and its write Flush when every instantiation in
// the module is of a kind with a generated patcher (its own package's,
// and ctrl's), else it stays naming the other package's instantiation.
const (
	genericRecPkg = `package rec

import (
	"context"

	"example.com/realmod/api"
	"example.com/realmod/wpatch"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

var _ = wpatch.NewWidgetStatusPatcher

// Rec is shared by the kinds' reconcilers.
type Rec[T client.Object] struct {
	C    client.Client
	New  func() T
	Hook func(T)
}

func (r *Rec[T]) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	obj := r.New()
	if err := r.C.Get(ctx, req.NamespacedName, obj); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	base := obj.DeepCopyObject().(T)
	r.Hook(obj)
	return ctrl.Result{}, r.C.Status().Patch(ctx, obj, client.MergeFromWithOptions(base, client.MergeFromWithOptimisticLock{}))
}

// NewWidget is the Widget reconciler.
func NewWidget(c client.Client) *Rec[*api.Widget] {
	return &Rec[*api.Widget]{C: c, New: func() *api.Widget { return &api.Widget{} }, Hook: func(w *api.Widget) { w.Status.Conditions = nil }}
}
`
	genericRecCtrl = `package ctrl

import (
	"example.com/realmod/api"
	"example.com/realmod/internal/rec"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// NewGadget is the Gadget reconciler.
func NewGadget(c client.Client) *rec.Rec[*api.Gadget] {
	return &rec.Rec[*api.Gadget]{C: c, New: func() *api.Gadget { return &api.Gadget{} }, Hook: func(g *api.Gadget) { g.Status.Conditions = nil }}
}
`
	// genericRecAny instantiates Rec by its own type parameter.
	genericRecAny = `package ctrl

import (
	"example.com/realmod/internal/rec"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

func Any[U client.Object]() *rec.Rec[U] { return nil }
`
)

// genericRecFiles is genericFiles' module with Rec, ctrl's gadget.go
// src, and wpatch's ForType over Widget and Gadget (rec.go names wpatch:
// a package finds the generated patchers of the packages it imports).
func genericRecFiles(gadget string) map[string]string {
	files := genericFiles(gadget)
	files["internal/rec/rec.go"] = genericRecPkg
	files["wpatch/wpatch.go"] = strings.Replace(genericPatchPkg, "import (\n", "import (\n\t\"fmt\"\n", 1) + `
func ForType[T client.Object](c client.Client, obj T, opts ...patcher.Option) (*patcher.Patcher[T], error) {
	switch any(obj).(type) {
	case *api.Widget, *api.Gadget:
		return patcher.New(c, obj, opts...), nil
	}
	return nil, fmt.Errorf("no generated status patcher of %T", obj)
}
`
	return files
}

func TestFixMovesGenericReconcilerType(t *testing.T) {
	bin := buildLint(t)
	mod, errOut := fixExported(t, bin, genericRecFiles(genericRecCtrl),
		"internal/rec/rec.go:28: fixed: move the status write onto the generated patchers (Rec.Reconcile makes its object's patcher with wpatch.ForType with WithNonStatusChangesUnsent in place of its base, then Flush: every instantiation of Rec in the module is of a kind with a generated patcher)")
	if got := readIn(t, mod, "internal/rec/rec.go"); !strings.Contains(got, "objPatcher, err := wpatch.ForType(r.C, obj, patcher.WithNonStatusChangesUnsent())\n\tif err != nil {\n\t\treturn ctrl.Result{}, err\n\t}") || !strings.Contains(got, "return ctrl.Result{}, objPatcher.Flush(ctx)") {
		t.Errorf("rec.go after -fix:\n%s", got)
	}
	_ = errOut
	vetFixed(t, mod)
}

func TestFixKeepsGenericReconcilerType(t *testing.T) {
	bin := buildLint(t)
	mod := exportedHelperModule(t, genericRecFiles(genericRecAny))
	before := readIn(t, mod, "internal/rec/rec.go")
	_, errOut, _, _ := lintWith(t, mod, bin, "export", "-fix", "./...")
	want := "internal/rec/rec.go:28: kept: handwritten status write to an object of unknown kind: use the generated status patcher of the object's concrete type (not moved to the patcher: Rec, exported, moves with all its callers or none, and in package example.com/realmod/ctrl, its instantiation rec.Rec[U] at gadget.go:8 is by U, a type parameter of another generic: which kinds it holds is not seen: by hand: make the base wpatch.ForType(r.C, obj) and the write its Flush)"
	if !strings.Contains(errOut, want) {
		t.Errorf("-fix output lacks %q:\n%s", want, errOut)
	}
	if after := readIn(t, mod, "internal/rec/rec.go"); after != before {
		t.Errorf("rec.go changed:\n%s", after)
	}
}
