// Package createorpatch: controllerutil.CreateOrPatch runs its mutate on
// the object it Gets, then patches the status when the mutate changed it,
// with client.MergeFrom: blind, its resourceVersion (sent only after a
// patch of the rest) that patch's, not the Get's (issue 80, project E).
// A mutate that leaves the status alone, and CreateOrUpdate (its Update of
// the main resource sends no status to a kind with a status subresource,
// and the resourceVersion it read to one without), write no status blind.
package createorpatch

import (
	"context"
	"sync/atomic"

	v1 "example.com/op/api/v1"
	"example.com/op/specutil"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/controller/controllerutil"
)

var ids atomic.Int64

// register is project E's: the mutate numbers the Widget once.
func register(ctx context.Context, c client.Client, name string) error {
	w := &v1.Widget{}
	w.Name = name
	_, err := controllerutil.CreateOrPatch(ctx, c, w, func() error { // want `^status write by controllerutil\.CreateOrPatch to Widget: its mutate changes the status at line 32, and CreateOrPatch patches it with client\.MergeFrom: with no resourceVersion when the mutate changed only the status, else with the one its patch of the rest returned, so what the mutate decided overwrites a status written between its Get and that patch \(one written after that patch gets a 409\): use WidgetStatusPatcher \(example\.com/op/internal/patchers\)$`
		if w.Status.Size == 0 {
			w.Status.Size = int(ids.Add(1))
		}
		return nil
	})
	return err
}

// labelled changes only the metadata and the spec: CreateOrPatch patches
// no status.
func labelled(ctx context.Context, c client.Client, owner *v1.Widget, scheme *runtime.Scheme, name string) error { // want labelled:"statusOnly\\[2\\]"
	w := &v1.Widget{}
	w.Name = name
	_, err := controllerutil.CreateOrPatch(ctx, c, w, func() error {
		w.Spec.Size = specutil.Size(owner)
		w.Labels = map[string]string{"app": "x"}
		controllerutil.AddFinalizer(w, "x")
		return ctrl.SetControllerReference(owner, w, scheme)
	})
	return err
}

// condition sets a condition through its address.
func condition(ctx context.Context, c client.Client, name string) error {
	w := &v1.Widget{}
	w.Name = name
	_, err := controllerutil.CreateOrPatch(ctx, c, w, func() error { // want `its mutate changes the status at line 58,`
		meta.SetStatusCondition(&w.Status.Conditions, metav1.Condition{Type: "Ready", Status: "True"})
		return nil
	})
	return err
}

// markReady is the package's: the mutate hands it the object.
func markReady(w *v1.Widget) {
	w.Spec.Size = 1
	w.Status.Ready = true
}

// helper's mutate changes the status in the helper it calls.
func helper(ctx context.Context, c client.Client, name string) error {
	w := &v1.Widget{}
	w.Name = name
	_, err := controllerutil.CreateOrPatch(ctx, c, w, func() error { // want `its mutate changes the status at line 67 \(in markReady\),`
		markReady(w)
		return nil
	})
	return err
}

// given's mutate comes from its caller: whether it changes the status
// is not known here.
func given(ctx context.Context, c client.Client, w *v1.Widget, mutate controllerutil.MutateFn) error { // want given:"statusOnly\\[2\\]"
	_, err := controllerutil.CreateOrPatch(ctx, c, w, mutate) // want `its mutate \(the parameter mutate\) is not followed: it may change the status, and CreateOrPatch patches it with client\.MergeFrom`
	return err
}

// updated: CreateOrUpdate sends the status only where the kind has no
// status subresource, with the resourceVersion it read.
func updated(ctx context.Context, c client.Client, name string) error {
	w := &v1.Widget{}
	w.Name = name
	_, err := controllerutil.CreateOrUpdate(ctx, c, w, func() error {
		w.Status.Ready = true
		return nil
	})
	return err
}

// noMutate passes no mutate, then one that captures nothing.
func noMutate(ctx context.Context, c client.Client, name string) error {
	w := &v1.Widget{}
	w.Name = name
	if _, err := controllerutil.CreateOrPatch(ctx, c, w, nil); err != nil {
		return err
	}
	_, err := controllerutil.CreateOrPatch(ctx, c, w, func() error { return nil })
	return err
}

// outOfSight hands the object to a function of another package.
func outOfSight(ctx context.Context, c client.Client, name string) error {
	w := &v1.Widget{}
	w.Name = name
	_, err := controllerutil.CreateOrPatch(ctx, c, w, func() error { // want `its mutate \(specutil\.Size at line 116 is given the object, out of sight\) is not followed`
		w.Spec.Size = specutil.Size(w) + 1
		return nil
	})
	return err
}

// settings has no status: CreateOrPatch patches none of it, whatever
// its mutate.
type settings struct {
	metav1.TypeMeta
	metav1.ObjectMeta
	Data map[string]string
}

func (s *settings) DeepCopyObject() runtime.Object { // want DeepCopyObject:"why"
	c := *s
	return &c
}

func noStatusField(ctx context.Context, c client.Client, mutate controllerutil.MutateFn) error {
	_, err := controllerutil.CreateOrPatch(ctx, c, &settings{}, mutate)
	return err
}

// methods calls the kind's own methods, of another package: unresolved,
// naming the last one.
func methods(ctx context.Context, c client.Client, name string) error {
	w := &v1.Widget{}
	w.Name = name
	_, err := controllerutil.CreateOrPatch(ctx, c, w, func() error { // want `its mutate \(the method SetCondition at line 149 is given the object, out of sight\) is not followed`
		if err := w.Validate(); err != nil {
			return err
		}
		w.SetCondition(metav1.Condition{Type: "Ready", Status: "True"})
		return nil
	})
	return err
}

// validated's mutate is a method value: not followed.
func validated(ctx context.Context, c client.Client, name string) error {
	w := &v1.Widget{}
	w.Name = name
	_, err := controllerutil.CreateOrPatch(ctx, c, w, w.Validate) // want `its mutate \(the method value Validate\) is not followed`
	return err
}

// another's mutate captures another Widget, not the object: it may be the
// same one.
func another(ctx context.Context, c client.Client, w, other *v1.Widget) error { // want another:"statusOnly\\[2 3\\]"
	_, err := controllerutil.CreateOrPatch(ctx, c, w, func() error { // want `its mutate \(the literal at line 166, which does not capture the object itself\) is not followed`
		other.Status.Ready = true
		return nil
	})
	return err
}
