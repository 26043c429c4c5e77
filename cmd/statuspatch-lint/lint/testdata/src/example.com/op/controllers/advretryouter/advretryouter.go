// Package advretryouter: a List item's decision that sets what outlives it
// by a statement other than an assignment (review R3 of 8182036).
package advretryouter

import (
	"context"

	v1 "example.com/op/api/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

type widgetList struct {
	Items []v1.Widget
}

func (l *widgetList) DeepCopyObject() runtime.Object { return l }

type R struct {
	client.Client
	pending map[string]bool
}

// delete of an outer map's entry: a second run deletes nothing, but a
// conflict ends the item with its entry gone.
func (r *R) itemDelete(ctx context.Context) error {
	list := &widgetList{}
	if err := r.List(ctx, list); err != nil {
		return err
	}
	for i := range list.Items {
		w := &list.Items[i]
		if !w.Status.Ready {
			w.Status.Ready = true
			delete(r.pending, w.Name)
		}
		if err := r.Status().Update(ctx, w); err != nil { // want `its decision cannot move into Retry: it sets r at line \d+, declared outside it`
			return err
		}
	}
	return nil
}

// A send: each run sends the name again.
func (r *R) itemSend(ctx context.Context, ch chan<- string) error {
	list := &widgetList{}
	if err := r.List(ctx, list); err != nil {
		return err
	}
	for i := range list.Items {
		w := &list.Items[i]
		if !w.Status.Ready {
			w.Status.Ready = true
			ch <- w.Name
		}
		if err := r.Status().Update(ctx, w); err != nil { // want `its decision cannot move into Retry: it sends on ch at line \d+: Retry's function may run more than once, and each run would do it again \(a second value sent, or a block\)`
			return err
		}
	}
	return nil
}

// A literal called in the decision that counts.
func (r *R) itemCall(ctx context.Context) (int, error) {
	list := &widgetList{}
	if err := r.List(ctx, list); err != nil {
		return 0, err
	}
	n := 0
	for i := range list.Items {
		w := &list.Items[i]
		if !w.Status.Ready {
			w.Status.Ready = true
			func() { n++ }()
		}
		if err := r.Status().Update(ctx, w); err != nil { // want `its decision cannot move into Retry: it sets n at line \d+, declared outside it`
			return n, err
		}
	}
	return n, nil
}

type names map[string]bool

func (s names) add(n string) { s[n] = true }

// A method of an outer map that sets it.
func (r *R) itemMethod(ctx context.Context, seen names) error {
	list := &widgetList{}
	if err := r.List(ctx, list); err != nil {
		return err
	}
	for i := range list.Items {
		w := &list.Items[i]
		if !w.Status.Ready {
			w.Status.Ready = true
			seen.add(w.Name)
		}
		if err := r.Status().Update(ctx, w); err != nil { // want `its decision cannot move into Retry: it sets seen at line \d+, declared outside it`
			return err
		}
	}
	return nil
}

// Twin: the conditions built in a local of the decision move.
func (r *R) itemConds(ctx context.Context) error {
	list := &widgetList{}
	if err := r.List(ctx, list); err != nil {
		return err
	}
	for i := range list.Items {
		w := &list.Items[i]
		if !w.Status.Ready {
			size := len(w.Name) + 1
			w.Status.Ready = true
			w.Status.Size = size
		}
		if err := r.Status().Update(ctx, w); err != nil { // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example\.com/op/internal/patchers\)$`
			return err
		}
	}
	return nil
}
