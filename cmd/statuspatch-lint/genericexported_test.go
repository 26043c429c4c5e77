package main

import (
	"strings"
	"testing"
)

// The most common conditions helper (issue 80, helper U's project C): an
// exported Set over an interface of the module, in a package of its
// own, deciding from the conditions before its Update, called from a
// reconciler per kind.
const (
	genericCondsPkg = `package conds

import (
	"context"
	"reflect"

	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// Conditioned is a kind whose status carries conditions.
type Conditioned interface {
	client.Object
	GetConditions() *[]metav1.Condition
}

// Set sets one condition and writes the status when the conditions changed.
func Set(ctx context.Context, c client.Client, obj Conditioned, typ, reason string) error {
	before := append([]metav1.Condition(nil), *obj.GetConditions()...)
	meta.SetStatusCondition(obj.GetConditions(), metav1.Condition{Type: typ, Status: "True", Reason: reason + obj.GetName()})
	if reflect.DeepEqual(before, *obj.GetConditions()) {
		return nil
	}
	return c.Status().Update(ctx, obj)
}
`
	// genericWidgetCtrl is kubebuilder's tutorial form: a local value,
	// written before and after the call.
	genericWidgetCtrl = `package ctrl

import (
	"context"

	"example.com/realmod/api"
	"example.com/realmod/internal/conds"
	"example.com/realmod/wpatch"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

var _ = wpatch.NewWidgetStatusPatcher

type WidgetReconciler struct{ Client client.Client }

func (r *WidgetReconciler) Sync(ctx context.Context, key client.ObjectKey) error {
	var w api.Widget
	if err := r.Client.Get(ctx, key, &w); err != nil {
		return err
	}
	meta.SetStatusCondition(&w.Status.Conditions, metav1.Condition{Type: "Counted", Status: "True", Reason: "Seen"})
	if err := r.Client.Status().Update(ctx, &w); err != nil {
		return err
	}
	if err := conds.Set(ctx, r.Client, &w, "Ready", "Reconciled"); err != nil {
		return err
	}
	meta.SetStatusCondition(&w.Status.Conditions, metav1.Condition{Type: "Scheduled", Status: "True", Reason: "Due"})
	return r.Client.Status().Update(ctx, &w)
}
`
	genericGadgetCtrl = `package ctrl

import (
	"context"

	"example.com/realmod/api"
	"example.com/realmod/internal/conds"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

type GadgetReconciler struct{ Client client.Client }

func (r *GadgetReconciler) Sync(ctx context.Context, key client.ObjectKey) error {
	g := &api.Gadget{}
	if err := r.Client.Get(ctx, key, g); err != nil {
		return err
	}
	return conds.Set(ctx, r.Client, g, "Ready", "Provisioned")
}
`
	// genericLoopCtrl re-reads the object in a conflict loop before the
	// call: the patcher of its first read no longer holds it there.
	genericLoopCtrl = `package ctrl

import (
	"context"

	"example.com/realmod/api"
	"example.com/realmod/internal/conds"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

type GadgetReconciler struct{ Client client.Client }

func (r *GadgetReconciler) Sync(ctx context.Context, key client.ObjectKey) error {
	g := &api.Gadget{}
	if err := r.Client.Get(ctx, key, g); err != nil {
		return err
	}
	g.Status.Conditions = nil
	if err := r.Client.Status().Update(ctx, g); err != nil {
		return err
	}
	var err error
	for i := 0; i < 3; i++ {
		if err = r.Client.Get(ctx, key, g); err != nil {
			return err
		}
		g.Status.Conditions = append(g.Status.Conditions, g.Status.Conditions...)
		err = r.Client.Status().Update(ctx, g)
		if !apierrors.IsConflict(err) {
			break
		}
	}
	if err != nil {
		return err
	}
	return conds.Set(ctx, r.Client, g, "Ready", "Provisioned")
}
`
)

// genericKeptLoopCtrl's loop reads its attempt counter in its decision:
// it stays, and so does its Get (handloopexported_test.go has the loop
// that moves).
var genericKeptLoopCtrl = strings.Replace(genericLoopCtrl, "append(g.Status.Conditions, g.Status.Conditions...)", "g.Status.Conditions[:i]", 1)

// genericRereadCtrl reads the object again after its own write, before
// the call: the call passes a patcher made right before it, over the
// object as last read.
var genericRereadCtrl = strings.Replace(strings.Replace(genericLoopCtrl, `	var err error
	for i := 0; i < 3; i++ {
		if err = r.Client.Get(ctx, key, g); err != nil {
			return err
		}
		g.Status.Conditions = append(g.Status.Conditions, g.Status.Conditions...)
		err = r.Client.Status().Update(ctx, g)
		if !apierrors.IsConflict(err) {
			break
		}
	}
	if err != nil {
		return err
	}
`, `	if err := r.Client.Get(ctx, key, g); err != nil {
		return err
	}
`, 1), "\tapierrors \"k8s.io/apimachinery/pkg/api/errors\"\n", "", 1)

// genericPatchPkg is the generated patchers of the module's Widget and
// Gadget, each with Patcher(), the generic patcher it wraps.
var genericPatchPkg = func() string {
	kind := `
type WidgetStatusPatcher struct{ p *patcher.Patcher[*api.Widget] }

func NewWidgetStatusPatcher(c client.Client, obj *api.Widget, opts ...patcher.Option) *WidgetStatusPatcher {
	return &WidgetStatusPatcher{patcher.New(c, obj, opts...)}
}

func (p *WidgetStatusPatcher) Object() *api.Widget { return p.p.Object() }

func (p *WidgetStatusPatcher) Patcher() *patcher.Patcher[*api.Widget] { return p.p }

func (p *WidgetStatusPatcher) Flush(ctx context.Context) error { return p.p.Flush(ctx) }

func (p *WidgetStatusPatcher) Retry(ctx context.Context, mutate func(*api.Widget) error) error {
	return p.p.Retry(ctx, mutate)
}

func FetchWidgetStatusPatcher(ctx context.Context, c client.Client, key client.ObjectKey) (*WidgetStatusPatcher, error) {
	obj := &api.Widget{}
	if err := c.Get(ctx, key, obj); err != nil {
		return nil, err
	}
	return NewWidgetStatusPatcher(c, obj), nil
}

func FetchWidgetStatusPatcherInto(ctx context.Context, c client.Client, key client.ObjectKey, obj *api.Widget) (*WidgetStatusPatcher, error) {
	if err := c.Get(ctx, key, obj); err != nil {
		return nil, err
	}
	return NewWidgetStatusPatcher(c, obj), nil
}
`
	return `package wpatch

import (
	"context"

	"example.com/realmod/api"
	"github.com/statuspatch/statuspatch/patcher"
	"sigs.k8s.io/controller-runtime/pkg/client"
)
` + kind + strings.ReplaceAll(kind, "Widget", "Gadget")
}()

// genericFiles is the module's files beside exportedHelperModule's, with
// ctrl's gadget.go src.
func genericFiles(gadget string) map[string]string {
	return map[string]string{
		"api/api.go": condKinds, "wpatch/wpatch.go": genericPatchPkg, "internal/conds/conds.go": genericCondsPkg,
		"ctrl/widget.go": genericWidgetCtrl, "ctrl/gadget.go": gadget,
	}
}

// -fix under the whole-module driver moves an exported helper over an
// interface of the module with all its callers (issue 80): Set takes
// *patcher.Patcher[T], T Conditioned, its write Flush, its client
// parameter gone; the Widget caller passes the patcher of its own writes
// (one life over the local value w), the Gadget caller one made after
// its Get. The module builds. Before, the helper's write stayed with no
// reason ("Conditioned (an interface)") and the Widget caller's writes
// with it. The migrated files are testdata/exportedhelper/generic/*.golden.
func TestFixMovesExportedHelperOverAModuleInterface(t *testing.T) {
	bin := buildLint(t)
	mod, errOut := fixExported(t, bin, genericFiles(genericGadgetCtrl),
		"internal/conds/conds.go:25: fixed: move the status write onto the generated patchers (Set takes the *patcher.Patcher[T] its callers in other packages pass, their kind's patcher's Patcher(), then Flush; its parameter c, then unused, goes)",
		"ctrl/widget.go:24: fixed: ", "ctrl/widget.go:31: fixed: ")
	noneKept(t, errOut)
	matchGoldens(t, mod, "generic", "", "internal/conds/conds.go", "ctrl/widget.go", "ctrl/gadget.go")
	vetFixed(t, mod)
}

// A caller that reads the object again after its own write passes a
// patcher made right before the call, over the object as last read (the
// patcher of its first read no longer holds what the call is given).
// The migrated caller is testdata/exportedhelper/generic/reread_ctrl_gadget.go.golden.
func TestFixMovesExportedHelperOverAModuleInterfaceAfterARead(t *testing.T) {
	bin := buildLint(t)
	mod, errOut := fixExported(t, bin, genericFiles(genericRereadCtrl), "internal/conds/conds.go:25: fixed: ", "ctrl/gadget.go:19: fixed: ")
	noneKept(t, errOut)
	matchGoldens(t, mod, "generic", "reread_", "ctrl/gadget.go")
	vetFixed(t, mod)
}

// noneKept fails the test for each write of ctrl or conds -fix kept.
func noneKept(t *testing.T, errOut string) {
	t.Helper()
	for _, l := range strings.Split(errOut, "\n") {
		if strings.Contains(l, ": kept: ") && (strings.Contains(l, "/ctrl/") || strings.Contains(l, "/conds/")) {
			t.Errorf("-fix kept a write: %s", l)
		}
	}
}

// The group stays, saying why, when a caller's patcher of its own
// writes no longer holds the object at the call (a hand conflict loop's
// re-read that stays, reading its attempt counter: passing the first
// patcher would write the status of the object it holds, on a stale
// resourceVersion); and under a per-package run, which does not change
// callers in other packages.
func TestFixKeepsExportedHelperOverAModuleInterface(t *testing.T) {
	bin := buildLint(t)
	for _, c := range []struct {
		name, gadget, driver, want string
		extra                      map[string]string
	}{
		{"reread", genericKeptLoopCtrl, "export", "its caller at line 38 passes g, which may no longer be the object the patcher gPatcher of its own writes holds there: g is read again or assigned at line 26, after line 16", nil},
		{"per package", genericGadgetCtrl, "checker", "internal/conds/conds.go:25:9: handwritten status write to Conditioned (an interface): use the generated status patcher of the object's concrete type\n", nil},
		// A kind whose GetConditions changes the spec: the driver drops
		// the helper's fix after the groups are resolved, and the Widget
		// caller's write after the call keeps its Update (at 9f8e928e it
		// moved, the helper's Update left between: its Flush conflicted).
		{"spec changer", genericGadgetCtrl, "export", "ctrl/widget.go:31: kept: handwritten status write to Widget: use WidgetStatusPatcher (example.com/realmod/wpatch) (not moved to the patcher: w is handed to conds.Set at line 27, whose status write at conds.go:25 stays ((example.com/realmod/internal/conds.Conditioned).GetConditions is called on it at line 20, which runs example.com/realmod/api.Sprocket.GetConditions: s.Spec is changed at sprocket.go:18", map[string]string{"api/sprocket.go": condSpecKind}},
	} {
		files := genericFiles(c.gadget)
		for k, v := range c.extra {
			files[k] = v
		}
		mod := exportedHelperModule(t, files)
		before := readIn(t, mod, "internal/conds/conds.go")
		_, errOut, _, _ := lintWith(t, mod, bin, c.driver, "-fix", "./...")
		if !strings.Contains(errOut, c.want) {
			t.Errorf("%s: -fix output lacks %q:\n%s", c.name, c.want, errOut)
		}
		if after := readIn(t, mod, "internal/conds/conds.go"); after != before {
			t.Errorf("%s: conds.go changed:\n%s", c.name, after)
		}
		vetFixed(t, mod)
	}
}
