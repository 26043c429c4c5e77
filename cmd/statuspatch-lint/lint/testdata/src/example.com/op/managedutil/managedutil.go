// Package managedutil holds karpenter's readers of the object
// (nodepoolutils.IsManaged, GetNodeClass): each reads the object in a
// function literal handed to a generic slice helper, and nothing keeps
// the literal's reference after the call returns a value.
package managedutil

import (
	"slices"

	v1 "example.com/op/api/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"sigs.k8s.io/controller-runtime/pkg/client/apiutil"
)

// IsManaged reads the object's template in a closure handed to
// slices.ContainsFunc.
func IsManaged(w *v1.Widget, images []string) bool { // want IsManaged:`^statusOnly\[0\]$`
	return slices.ContainsFunc(images, func(image string) bool {
		return w.Spec.Template != nil && image == w.Spec.Template.Key()
	})
}

// Keep keeps the closure: a call after may read a spec changed since.
var Keep func() string

// Retain hands on a closure that reads the object and is kept.
func Retain(w *v1.Widget) { // want Retain:`^statusOnly\[0\]$`
	Keep = func() string { return w.Spec.Template.Image }
}

// Resize changes the spec in a closure it calls.
func Resize(w *v1.Widget, sizes []int) bool { // want Resize:"why"
	return slices.ContainsFunc(sizes, func(s int) bool {
		w.Spec.Size = s
		return true
	})
}

// KindOf names the object's kind through a runtime.Object (karpenter's
// object.GVK, of operatorpkg): it only reads it.
func KindOf(o runtime.Object) string { // want KindOf:`^statusOnly\[0\]$`
	kind, _ := apiutil.GVKForObject(o, nil)
	return kind
}
