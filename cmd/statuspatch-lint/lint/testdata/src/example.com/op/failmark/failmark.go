// Package failmark holds the status helpers a reconciler's deferred
// failure write calls (controllers/deferstatushelper), in a package of
// their own: MarkFailed changes only the status it is given (its
// ParamsFact: statusOnly[0]); Remember keeps the object in a variable of
// the package, where it outlives the call.
package failmark

import (
	v1 "example.com/op/api/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// MarkFailed sets the Ready condition to False with the error.
func MarkFailed(w *v1.Widget, err error) { // want MarkFailed:`^statusOnly\[0\]$`
	meta.SetStatusCondition(&w.Status.Conditions, metav1.Condition{
		Type: "Ready", Status: "False", Reason: err.Error(), ObservedGeneration: w.Generation,
	})
}

// last is the widget Remember was last given.
var last *v1.Widget

// Remember keeps w, for a later report.
func Remember(w *v1.Widget) { // want Remember:"why"
	w.Status.Ready = false
	last = w
}
