package migrateitemretry

import (
	"context"

	v1 "example.com/op/api/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// The branch statements of a List item's decision, each judged by the
// statement it continues or leaves (issue 80, s105): a select is left by
// a break, never by a continue; a label names its own statement.

// Moved: the continue in the select continues the loop the write ends
// (the select is no loop of its own), mutate's return nil.
func (p *Provisioner) stopping(ctx context.Context, byKey map[string]*v1.Widget, stop <-chan struct{}) {
	for _, w := range byKey {
		stored := w.DeepCopy()
		select {
		case <-stop:
			continue
		default:
			if meta.IsStatusConditionTrue(w.Status.Conditions, "Ready") {
				continue
			}
		}
		w.Status.Ready = true
		_ = p.client.Status().Patch(ctx, w, client.MergeFrom(stored)) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example.com/op/internal/patchers\)$`
	}
}

// Moved: a labeled continue of the loop the write ends, from a loop of
// the decision's own; its label, named by nothing else, is dropped.
func (p *Provisioner) labeled(ctx context.Context, byKey map[string]*v1.Widget, banned []int) {
items:
	for _, w := range byKey {
		stored := w.DeepCopy()
		for _, b := range banned {
			if w.Status.Size == b {
				continue items
			}
		}
		w.Status.Ready = true
		_ = p.client.Status().Patch(ctx, w, client.MergeFrom(stored)) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example.com/op/internal/patchers\)$`
	}
}

// Moved: the label stays, named by the continue before the decision.
func (p *Provisioner) labelStays(ctx context.Context, byKey map[string]*v1.Widget, banned []int) {
items:
	for name, w := range byKey {
		if name == "" {
			continue items
		}
		stored := w.DeepCopy()
		for _, b := range banned {
			if w.Status.Size == b {
				continue items
			}
		}
		w.Status.Ready = true
		_ = p.client.Status().Patch(ctx, w, client.MergeFrom(stored)) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example.com/op/internal/patchers\)$`
	}
}

// Moved: the continue in the select continues the decision's own loop,
// inside the moved lines, and the break leaves the decision's select.
func (p *Provisioner) innerSelect(ctx context.Context, byKey map[string]*v1.Widget, sizes []int, stop <-chan struct{}) {
	for _, w := range byKey {
		stored := w.DeepCopy()
		for _, s := range sizes {
			select {
			case <-stop:
				continue
			default:
				if s < 0 {
					break
				}
			}
			w.Status.Size += s
		}
		_ = p.client.Status().Patch(ctx, w, client.MergeFrom(stored)) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example.com/op/internal/patchers\)$`
	}
}

// Kept: the labeled break leaves the loop, skipping the later items'
// writes too; the decision begins after its loop, whose read of the
// status stays before it.
func (p *Provisioner) labeledBreak(ctx context.Context, byKey map[string]*v1.Widget, banned []int) {
items:
	for _, w := range byKey {
		stored := w.DeepCopy()
		for _, b := range banned {
			if w.Status.Size == b {
				break items
			}
		}
		w.Status.Ready = true
		_ = p.client.Status().Patch(ctx, w, client.MergeFrom(stored)) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example.com/op/internal/patchers\) \(not moved to the patcher: .*; its decision cannot move into Retry: w's status is read at line 95, before the decision, .*\)$`
	}
}

// Kept: the labeled continue continues the outer loop, whose body goes
// on after the inner loop the write ends; the decision begins after it.
func (p *Provisioner) labeledOuter(ctx context.Context, byKey map[string]*v1.Widget, rounds int) int {
	n := 0
rounds:
	for range rounds {
		for _, w := range byKey {
			stored := w.DeepCopy()
			if w.Status.Ready {
				continue rounds
			}
			w.Status.Ready = true
			_ = p.client.Status().Patch(ctx, w, client.MergeFrom(stored)) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example.com/op/internal/patchers\) \(not moved to the patcher: .*; its decision cannot move into Retry: w's status is read at line 112, before the decision, .*\)$`
		}
		n++
	}
	return n
}
