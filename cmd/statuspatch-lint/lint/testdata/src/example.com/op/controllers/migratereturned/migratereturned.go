// Package migratereturned: a reference into the object a function of the
// package returns, followed where it is called, and calls through the
// function values a package map or variable holds (jobset's
// findFirstFailedPolicyRuleAndJob returns &rule of a range copy of the
// spec's rules, whose caller reads .Action and hands it to the appliers
// of actionFunctionMap, which read rule.Name). When the caller only reads
// what it gets and every applier only reads it, the write moves; a
// caller or an applier that writes through it, or a map whose values are
// not all functions of the package, keeps the write, naming the line.
package migratereturned

import (
	"context"
	"slices"
	"strings"

	v1 "example.com/op/api/v1"
	"example.com/op/returnsutil"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

type applier = func(w *v1.Widget, role *v1.Role) error

// appliers holds functions of the package only: a literal in a variable
// and a declared function.
var appliers = map[string]applier{
	"ready": readyApplier,
	"size":  sizeApplier,
}

var readyApplier applier = func(w *v1.Widget, role *v1.Role) error {
	w.Status.Ready = role != nil && role.Name != ""
	return nil
}

func sizeApplier(w *v1.Widget, role *v1.Role) error { // want sizeApplier:`statusOnly\[0\]`
	if role != nil && role.Scaling != nil {
		w.Status.Size = len(role.Scaling.Mode)
	}
	return nil
}

// firstRole returns the address of a range copy: its Scaling is the
// spec's.
func firstRole(roles []v1.Role, prefix string) (*v1.Role, int) {
	for i, r := range roles {
		if strings.HasPrefix(r.Name, prefix) {
			return &r, i
		}
	}
	return nil, -1
}

func apply(w *v1.Widget, role *v1.Role, action string) error { // want apply:`statusOnly\[0\]`
	a, ok := appliers[action]
	if !ok {
		return nil
	}
	return a(w, role)
}

func execute(w *v1.Widget) error { // want execute:`statusOnly\[0\]`
	roles := w.Spec.Roles
	role, _ := firstRole(roles, "lead")
	action := "ready"
	if role != nil {
		action = role.Name
	}
	return apply(w, role, action)
}

// JobSetLike is jobset's shape: the returned rule is read, and every
// applier reads it: it moves.
type JobSetLike struct{ client.Client }

func (r *JobSetLike) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	w := &v1.Widget{}
	if err := r.Get(ctx, req.NamespacedName, w); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	if err := execute(w); err != nil {
		return ctrl.Result{}, err
	}
	return ctrl.Result{}, r.Status().Update(ctx, w) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example.com/op/internal/patchers\)$`
}

// Writer writes through the returned reference: kept, naming the line.
type Writer struct{ client.Client }

func (r *Writer) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	w := &v1.Widget{}
	if err := r.Get(ctx, req.NamespacedName, w); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	if role, _ := firstRole(w.Spec.Roles, "lead"); role != nil && role.Scaling != nil {
		role.Scaling.Mode = "leader"
	}
	return ctrl.Result{}, r.Status().Update(ctx, w) // want `\(not moved to the patcher: w.Spec may be changed at line \d+: w.Spec.Roles, a reference into the object, is passed to firstRole, where what it returns, a reference into roles, is assigned to role at line \d+, where role.Scaling.Mode is changed at line \d+, and the patcher`
}

// scalers holds an applier that changes the spec through the role.
var scalers = map[string]applier{
	"ready": readyApplier,
	"mode":  modeApplier,
}

var modeApplier applier = func(w *v1.Widget, role *v1.Role) error {
	if role != nil && role.Scaling != nil {
		role.Scaling.Mode = "scaled"
	}
	w.Status.Ready = true
	return nil
}

// Scaler calls, through scalers, an applier that writes through the
// role it gets: kept, naming that applier's line.
type Scaler struct{ client.Client }

func (r *Scaler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	w := &v1.Widget{}
	if err := r.Get(ctx, req.NamespacedName, w); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	role, _ := firstRole(w.Spec.Roles, "lead")
	if f, ok := scalers["mode"]; ok {
		_ = f(w, role)
	}
	return ctrl.Result{}, r.Status().Update(ctx, w) // want `\(not moved to the patcher: w.Spec may be changed at line \d+: w.Spec.Roles, a reference into the object, is passed to firstRole, where what it returns, a reference into roles, is assigned to role at line \d+, where, at line \d+, role, a reference into the object, is passed to the function value f, which may be modeApplier, where role.Scaling.Mode is changed at line \d+, and the patcher`
}

// swapped is a map one of whose values is set elsewhere: its values are
// not all known.
var swapped = map[string]applier{
	"ready": readyApplier,
}

func init() {
	swapped["size"] = func(w *v1.Widget, role *v1.Role) error {
		w.Spec.Size = 1
		return nil
	}
}

// Swapped calls through swapped: kept, naming where the map is set.
type Swapped struct{ client.Client }

func (r *Swapped) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	w := &v1.Widget{}
	if err := r.Get(ctx, req.NamespacedName, w); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	if f, ok := swapped["size"]; ok {
		_ = f(w, nil)
	}
	return ctrl.Result{}, r.Status().Update(ctx, w) // want `\(not moved to the patcher: w is passed to the function value f at line \d+, where its values are not all known: swapped is set at line \d+\)`
}

// foreign holds a function of another package.
var foreign = map[string]func([]string, string) bool{
	"has": slices.Contains[[]string, string],
}

// Foreign hands a reference to a function of another package through a
// map: kept, as before.
type Foreign struct{ client.Client }

func (r *Foreign) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	w := &v1.Widget{}
	if err := r.Get(ctx, req.NamespacedName, w); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	w.Status.Ready = foreign["has"](w.Spec.Zones, "a")
	return ctrl.Result{}, r.Status().Update(ctx, w) // want `\(not moved to the patcher: .*slices.Contains`
}

// Imported reads what a function of another package returns, a
// reference into the object (its ParamsFact's Returns): it moves.
type Imported struct{ client.Client }

func (r *Imported) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	w := &v1.Widget{}
	if err := r.Get(ctx, req.NamespacedName, w); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	if role, ok := returnsutil.FirstRole(w, "lead"); ok && role.Scaling != nil {
		w.Status.Size = len(role.Scaling.Mode)
	}
	return ctrl.Result{}, r.Status().Update(ctx, w) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example.com/op/internal/patchers\)$`
}

// ImportedWriter writes through it: kept, naming the line.
type ImportedWriter struct{ client.Client }

func (r *ImportedWriter) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	w := &v1.Widget{}
	if err := r.Get(ctx, req.NamespacedName, w); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	if role, ok := returnsutil.FirstRole(w, "lead"); ok && role.Scaling != nil {
		role.Scaling.Mode = "leader"
	}
	w.Status.Ready = true
	return ctrl.Result{}, r.Status().Update(ctx, w) // want `\(not moved to the patcher: w is passed to returnsutil.FirstRole at line \d+, where what it returns, a reference into w, is assigned to role at line \d+, where role.Scaling.Mode is changed at line \d+\)`
}
