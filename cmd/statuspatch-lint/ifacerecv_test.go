package main

import (
	"os"
	"os/exec"
	"strings"
	"testing"
)

// A conditions helper of the module over an interface its kinds
// implement (issue 80): conds.Mark(obj Conditioned, ...) calls
// obj.GetConditions() on the object, whose implementations each return
// &x.Status.Conditions.
const (
	condKinds = `package api

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
)

type WidgetStatus struct{ Conditions []metav1.Condition }

type WidgetSpec struct{ Size int }

type Widget struct {
	metav1.TypeMeta
	metav1.ObjectMeta
	Spec   WidgetSpec
	Status WidgetStatus
}

func (w *Widget) DeepCopyObject() runtime.Object { c := *w; return &c }

func (w *Widget) GetConditions() *[]metav1.Condition { return &w.Status.Conditions }

type Gadget struct {
	metav1.TypeMeta
	metav1.ObjectMeta
	Status WidgetStatus
}

func (g *Gadget) DeepCopyObject() runtime.Object { c := *g; return &c }

func (g *Gadget) GetConditions() *[]metav1.Condition { return &g.Status.Conditions }
`
	// condSpecKind's GetConditions changes the spec: a Conditioned the
	// helper may be given.
	condSpecKind = `package api

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
)

type Sprocket struct {
	metav1.TypeMeta
	metav1.ObjectMeta
	Spec   WidgetSpec
	Status WidgetStatus
}

func (s *Sprocket) DeepCopyObject() runtime.Object { c := *s; return &c }

func (s *Sprocket) GetConditions() *[]metav1.Condition {
	s.Spec.Size++
	return &s.Status.Conditions
}
`
	condPkg = `package conds

import (
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

type Conditioned interface {
	client.Object
	GetConditions() *[]metav1.Condition
}

func Mark(obj Conditioned, typ, reason string) {
	meta.SetStatusCondition(obj.GetConditions(), metav1.Condition{Type: typ, Status: "True", Reason: reason})
}
`
	condCtrl = `package ctrl

import (
	"context"

	"example.com/realmod/api"
	"example.com/realmod/internal/conds"
	"example.com/realmod/wpatch"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

var _ = wpatch.NewWidgetStatusPatcher

type Reconciler struct{ Client client.Client }

func (r *Reconciler) Sync(ctx context.Context, key client.ObjectKey) error {
	w := &api.Widget{}
	if err := r.Client.Get(ctx, key, w); err != nil {
		return err
	}
	conds.Mark(w, "Ready", "Seen")
	return r.Client.Status().Update(ctx, w)
}
`
)

// condPatchPkg is kindpatchOpts for the module's Widget.
var condPatchPkg = strings.NewReplacer("package kindpatch", "package wpatch",
	`appsv1 "k8s.io/api/apps/v1"`, `"example.com/realmod/api"`, "appsv1.Deployment", "api.Widget", "Deployment", "Widget").Replace(kindpatchOpts)

// -fix under the whole-module driver moves a write past a helper that
// calls an interface's method on the object when every implementation
// in the module changes at most its status and returns only references
// into it; it keeps it, naming the implementation, when one changes the
// spec, and a per-package run keeps it as before. The interface is
// internal to the module: an exported one is not closed to it.
func TestFixFollowsAMethodCalledOnTheObjectToTheModulesImplementations(t *testing.T) {
	bin := buildLint(t)
	const at = "ctrl/ctrl.go:22"
	const notFollowed = "w is passed to conds.Mark at line 21, where obj.GetConditions is called at conds.go:15 (GetConditions is a method of an interface: which implementation runs there is not followed)"
	for _, c := range []struct {
		name   string
		extra  map[string]string
		driver string
		want   string
		moved  bool
	}{
		{"status getters", nil, "export", at + ": fixed: ", true},
		{"spec changer", map[string]string{"api/sprocket.go": condSpecKind}, "export",
			"(example.com/realmod/internal/conds.Conditioned).GetConditions is called on it at conds.go:15, which runs example.com/realmod/api.Sprocket.GetConditions: s.Spec is changed at sprocket.go:18", false},
		{"exported interface", map[string]string{"conds/conds.go": condPkg, "ctrl/ctrl.go": strings.ReplaceAll(condCtrl, "example.com/realmod/internal/conds", "example.com/realmod/conds")}, "export", notFollowed, false},
		{"per package", nil, "checker", notFollowed, false},
	} {
		files := map[string]string{"api/api.go": condKinds, "internal/conds/conds.go": condPkg, "ctrl/ctrl.go": condCtrl, "wpatch/wpatch.go": condPatchPkg}
		for k, v := range c.extra {
			files[k] = v
		}
		if c.name == "exported interface" {
			delete(files, "internal/conds/conds.go")
		}
		mod := exportedHelperModule(t, files)
		before := readIn(t, mod, "ctrl/ctrl.go")
		_, errOut, _, _ := lintWith(t, mod, bin, c.driver, "-fix", "./...")
		if !strings.Contains(errOut, c.want) {
			t.Errorf("%s: -fix output lacks %q:\n%s", c.name, c.want, errOut)
		}
		after := readIn(t, mod, "ctrl/ctrl.go")
		if c.moved != (after != before) || c.moved && !strings.Contains(after, "wPatcher := wpatch.NewWidgetStatusPatcher(r.Client, w") {
			t.Errorf("%s: ctrl.go changed: %v, want %v:\n%s", c.name, after != before, c.moved, after)
		}
		cmd := exec.Command("go", "build", "./...")
		cmd.Dir, cmd.Env = mod, append(os.Environ(), "GOWORK=off")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Errorf("%s: go build ./... after -fix: %v\n%s", c.name, err, out)
		}
	}
}
