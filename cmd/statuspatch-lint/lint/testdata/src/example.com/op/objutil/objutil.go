// Package objutil holds functions of another package that take the object
// a controller of example.com/op/controllers writes: -fix follows it into
// them by the facts this package's analysis exports (ParamsFact).
package objutil

import (
	v1 "example.com/op/api/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// Label reads the object: it changes at most its status.
func Label(w *v1.Widget) string { return w.Namespace + "/" + w.Name }

// Read passes it to a reader of this package.
func Read(w *v1.Widget) string { return Label(w) + "!" }

// Key reads it through an interface.
func Key(obj client.Object) client.ObjectKey { return client.ObjectKeyFromObject(obj) }

// MarkReady changes its status only.
func MarkReady(w *v1.Widget) { w.Status.Ready = true }

// Resize changes its spec.
func Resize(w *v1.Widget) { w.Spec.Size++ }

// Forward hands it to a function of this package that changes its spec.
func Forward(w *v1.Widget) { Resize(w) }

var last *v1.Widget

// Keep stores it.
func Keep(w *v1.Widget) { last = w }

// Convert may change it behind an interface.
func Convert(obj client.Object) {
	if w, ok := obj.(*v1.Widget); ok {
		w.Spec.Size = 0
	}
}

// Describer's method reads it.
type Describer struct{ Prefix string }

func (d Describer) Describe(w *v1.Widget) string { return d.Prefix + Label(w) }

// Present compares it with nil: a read.
func Present(w *v1.Widget) bool { return w != nil && w.Name != "" }

// SpecLabels returns the spec's labels: a caller may change them through
// the map it gets.
func SpecLabels(w *v1.Widget) map[string]string { return w.Spec.Labels }

// LabelOf reads one of the spec's labels.
func LabelOf(w *v1.Widget, k string) string { return w.Spec.Labels[k] }

// DriverPodName reads a pointer of the spec through a local, as
// spark-operator's util.GetDriverPodName does: a reader.
func DriverPodName(w *v1.Widget) string {
	name := w.Spec.PodName
	if name != nil && len(*name) > 0 {
		return *name
	}
	return w.Name + "-driver"
}

// Relabel changes its labels: outside its status and its identity, left
// unsent by a status subresource write (ParamsFact.Unsent).
func Relabel(w *v1.Widget) {
	if w.Labels == nil {
		w.Labels = map[string]string{}
	}
	w.Labels["resized"] = "yes"
}

// Adopt replaces its ObjectMeta whole with another's: its identity,
// which keeps a caller's status subresource write (ParamsFact.UnsentWhy).
func Adopt(w, from *v1.Widget) { w.ObjectMeta = from.ObjectMeta }

// RoleOf returns the address of one of the spec's roles, as lws's
// GetRoleConfigs returns &ds.Spec.Roles[i]: a caller may change the spec
// through it.
func RoleOf(w *v1.Widget, i int) *v1.Role { return &w.Spec.Roles[i] }
