package migrateitemretry

import (
	"context"

	v1 "example.com/op/api/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// ListReconciler is kubebuilder's: its Scheme field hides the embedded
// client's Scheme method, so the reconciler is no client.Client and a
// patcher is made with r.Client (issue 80, helper D's R1b).
type ListReconciler struct {
	client.Client
	Scheme *runtime.Scheme
}

// A name collected before the check of the status: it decides nothing
// the write sets, and stays before the Retry, run once; the decision
// moves.
func (r *ListReconciler) tag(ctx context.Context, size int) ([]string, error) {
	list := &widgetList{Items: []v1.Widget{}}
	if err := r.List(ctx, list); err != nil {
		return nil, err
	}
	var names []string
	for i := range list.Items {
		w := &list.Items[i]
		names = append(names, w.Name)
		if w.Status.Size == size {
			continue
		}
		w.Status.Size = size
		if err := r.Status().Update(ctx, w); err != nil { // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example.com/op/internal/patchers\)$`
			return nil, err
		}
	}
	return names, nil
}

// Kept: what is collected before the check reads the status, a part of
// the decision that would be collected once per run of Retry's function.
func (r *ListReconciler) sizes(ctx context.Context, size int) []int {
	list := &widgetList{}
	if err := r.List(ctx, list); err != nil {
		return nil
	}
	var seen []int
	for i := range list.Items {
		w := &list.Items[i]
		seen = append(seen, w.Status.Size)
		if w.Status.Size == size {
			continue
		}
		w.Status.Size = size
		_ = r.Status().Update(ctx, w) // want `\(not moved to the patcher: w is an item of a list at line 51, a cached copy: make its patcher with FetchWidgetStatusPatcher\(ctx, r.Client, client.ObjectKeyFromObject\(w\)\), which reads it fresh, and Flush it here; its decision cannot move into Retry: it sets seen at line 52, declared outside it: .*\)$`
	}
	return seen
}

// counter hands out tokens.
type counter struct{ n int64 }

func (c *counter) Add(d int64) int64 { c.n += d; return c.n }

var tokens counter

// Issue 80's Berth: the parent hands out a token to each listed child
// that has none. Its patcher reads the item fresh, so Retry's first
// attempt decides on the stored status, not a listed copy behind this
// process's last write of it; the token is made once.
func (r *ListReconciler) berths(ctx context.Context) error {
	list := &widgetList{}
	if err := r.List(ctx, list); err != nil {
		return err
	}
	for i := range list.Items {
		w := &list.Items[i]
		if w.Status.Size != 0 {
			continue
		}
		w.Status.Size = int(tokens.Add(1))
		if err := r.Status().Update(ctx, w); err != nil { // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example.com/op/internal/patchers\)$`
			return err
		}
	}
	return nil
}
