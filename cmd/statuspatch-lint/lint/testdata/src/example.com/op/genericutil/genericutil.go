// Package genericutil holds a generic function of another package that
// takes the object a controller of example.com/op/controllers writes
// (migrateexplicit): -fix follows it by the facts of its declaration,
// whether its caller writes its type argument or not.
package genericutil

import v1 "example.com/op/api/v1"

// MarkReady changes the widget's status only; what it notes is of any
// type.
func MarkReady[T any](w *v1.Widget, note T) {
	_ = note
	w.Status.Ready = true
}
