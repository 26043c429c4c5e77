// Package v1 holds a CRD type with a spec, for the -fix migration.
package v1

import (
	"errors"
	"time"

	"example.com/op/conds"
	"k8s.io/apimachinery/pkg/api/resource"

	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/intstr"
)

type WidgetSpec struct {
	Size   int
	Labels map[string]string

	PodName  *string
	MaxSurge intstr.IntOrString
	Roles    []Role
	Template *Template
	Hooked   *Hooked

	// Limits and Zones are read by resource.Quantity's and samber/lo's
	// readers (karpenter's CapacityBuffer limits, NodePool requirements).
	Limits map[string]resource.Quantity
	Zones  []string

	// Each yields names: ranging over it calls it.
	Each func(yield func(string) bool) `json:"-"`
}

// Role holds a reference (Scaling), as lws's DisaggregatedSet roles do.
type Role struct {
	Name    string
	Scaling *Scaling
}

type Scaling struct{ Mode string }

// Template is encoded by json.Marshal and yaml.Marshal as it is.
type Template struct {
	Image  string
	Labels map[string]string
	Since  metav1.Time
	// Started is a time.Time: a value, though it points to its Location.
	Started time.Time
}

// Key reads the template through its pointer receiver (karpenter's
// NodeClassReference.GroupKind).
func (t *Template) Key() string { return t.Image + "@" + t.Labels["tag"] }

// Hooked's MarshalJSON has a pointer receiver: encoding/json calls it on
// the object's own value, and it may change it.
type Hooked struct{ Calls int }

func (h *Hooked) MarshalJSON() ([]byte, error) {
	h.Calls++
	return []byte("{}"), nil
}

type WidgetStatus struct {
	Ready      bool
	Size       int
	Conditions []metav1.Condition
	PodName    *string
}

type Widget struct {
	metav1.TypeMeta
	metav1.ObjectMeta
	Spec   WidgetSpec
	Status WidgetStatus
}

func (w *Widget) DeepCopy() *Widget {
	c := *w
	return &c
}

func (w *Widget) DeepCopyObject() runtime.Object { return w.DeepCopy() }

// SetCondition changes only the status (karpenter's
// CapacityBuffer.SetCondition).
func (w *Widget) SetCondition(c metav1.Condition) {
	meta.SetStatusCondition(&w.Status.Conditions, c)
}

// Validate reads the spec through a method declared after it and
// returns an error (karpenter's NodePool.RuntimeValidate).
func (w *Widget) Validate() error { return w.Spec.Template.check() }

// ValidateDeep hands the template's labels three functions deep
// (karpenter's RuntimeValidate: each requirement to ValidateRequirement,
// then to validateWellKnownValues), each of which only reads them.
func (w *Widget) ValidateDeep() error { return w.Spec.Template.checkLabels() }

func (t *Template) checkLabels() error { return labelsOK(t.Labels) }

func labelsOK(l map[string]string) error { return tagOK(l) }

func tagOK(l map[string]string) error { return valueOK(l) }

func valueOK(l map[string]string) error {
	if len(l["tag"]) > 63 {
		return errors.New("long tag")
	}
	return nil
}

func (t *Template) check() error {
	if t == nil || t.Image == "" {
		return errors.New("no image")
	}
	return nil
}

// Grow is a method that changes the spec.
func (w *Widget) Grow() { w.Spec.Size++ }

// Gadget has no generated patcher.
type Gadget struct {
	metav1.TypeMeta
	metav1.ObjectMeta
	Status struct{ Phase string }
}

func (g *Gadget) DeepCopy() *Gadget {
	c := *g
	return &c
}

func (g *Gadget) DeepCopyObject() runtime.Object { return g.DeepCopy() }

// CopyFrom changes the receiver's spec and status from src, which it only
// reads.
func (w *Widget) CopyFrom(src *Widget) {
	w.Spec.Size = src.Spec.Size
	w.Status.Ready = src.Status.Ready
}

// GetConditions and SetConditions are the status's conditions
// (karpenter's NodePool.GetConditions, SetConditions).
func (w *Widget) GetConditions() []metav1.Condition { return w.Status.Conditions }

func (w *Widget) SetConditions(c []metav1.Condition) { w.Status.Conditions = c }

// ConditionsRef is the address of the status's conditions, for
// meta.SetStatusCondition (a kubebuilder project's conditions helper).
func (w *Widget) ConditionsRef() *[]metav1.Condition { return &w.Status.Conditions }

// SizeRef is the address of the spec's size: no reference into the status.
func (w *Widget) SizeRef() *int { return &w.Spec.Size }

// StatusConditions holds the Widget in the conds.Set it returns
// (karpenter's NodePool.StatusConditions).
func (w *Widget) StatusConditions() conds.Set { return conds.NewReady("Seen").For(w) }

// SetSize changes the spec, through conds.Sized.
func (w *Widget) SetSize(n int) { w.Spec.Size = n }

// GetCount is named as a getter but changes the spec: a reader only by
// its body, never by its name.
func (w *Widget) GetCount() int {
	w.Spec.Size++
	return w.Spec.Size
}
