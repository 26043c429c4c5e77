// Package advretryside: a List item's decision that calls what acts
// outside the item (s111's adversary): Retry's function may run more than
// once, and each run would act again: an event recorded keeps the write
// (its body not seen), a counter's Next and a function setting a package
// variable move, each made once (sync.OnceValue), so a conflict's second
// run takes the same value.
package advretryside

import (
	"context"

	v1 "example.com/op/api/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/client-go/tools/events"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

type widgetList struct {
	Items []v1.Widget
}

func (l *widgetList) DeepCopyObject() runtime.Object { return l }

type counter struct{ n int }

func (c *counter) Next() int { c.n++; return c.n }

var total int

func bump() int { total++; return total }

type R struct {
	client.Client
	Recorder events.EventRecorder
	ids      *counter
}

// itemEvent: an event recorded in the decision.
func (r *R) itemEvent(ctx context.Context) error {
	list := &widgetList{}
	if err := r.List(ctx, list); err != nil {
		return err
	}
	for i := range list.Items {
		w := &list.Items[i]
		if !w.Status.Ready {
			w.Status.Ready = true
			r.Recorder.Eventf(w, nil, "Normal", "Ready", "Reconcile", "ready")
		}
		if err := r.Status().Update(ctx, w); err != nil { // want `its decision cannot move into Retry as written: the call r\.Recorder\.Eventf at line 48 would run again on each attempt \(Eventf is an interface's method, whose body is not seen\)`
			return err
		}
	}
	return nil
}

// itemCounter: a method of a field that counts.
func (r *R) itemCounter(ctx context.Context) error {
	list := &widgetList{}
	if err := r.List(ctx, list); err != nil {
		return err
	}
	for i := range list.Items {
		w := &list.Items[i]
		if w.Status.Size == 0 {
			w.Status.Size = r.ids.Next()
		}
		if err := r.Status().Update(ctx, w); err != nil { // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example\.com/op/internal/patchers\)$`
			return err
		}
	}
	return nil
}

// itemGlobal: a function of the package that sets a package variable.
func (r *R) itemGlobal(ctx context.Context) error {
	list := &widgetList{}
	if err := r.List(ctx, list); err != nil {
		return err
	}
	for i := range list.Items {
		w := &list.Items[i]
		if w.Status.Size == 0 {
			w.Status.Size = bump()
		}
		if err := r.Status().Update(ctx, w); err != nil { // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example\.com/op/internal/patchers\)$`
			return err
		}
	}
	return nil
}
