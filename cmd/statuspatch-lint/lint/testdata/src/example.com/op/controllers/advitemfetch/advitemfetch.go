// Package advitemfetch: a List item decided from its status, written in
// other forms than `if err := write; err != nil { return ... }` (issue
// 80: a write to a List item is made with Fetch/Retry, never on a cached
// copy). Each gets its patcher from a fresh read,
// Fetch<Kind>StatusPatcherInto, whose error is handled as the write's:
// karpenter's buffers.go:117 (a map of items, the base replaced, the
// error appended and the loop going on), `err = write` then `if err !=
// nil`, `errs = append(errs, write)`, and a helper called per item that
// returns its write. A handling that neither leaves nor ends its loop's
// body gets the Fetch at the write, in an if of its own whose error
// runs the write's handling and skips the write; err = write then such
// a handling keeps New over the item.
package advitemfetch

import (
	"context"
	"errors"
	"fmt"
	"log"

	v1 "example.com/op/api/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

type widgetList struct {
	Items []v1.Widget
}

func (l *widgetList) DeepCopyObject() runtime.Object { return l }

type P struct {
	client client.Client
}

func (p *P) byName(ctx context.Context) (map[string]*v1.Widget, error) {
	list := &widgetList{}
	if err := p.client.List(ctx, list); err != nil {
		return nil, err
	}
	out := map[string]*v1.Widget{}
	for i := range list.Items {
		out[list.Items[i].Name] = &list.Items[i]
	}
	return out, nil
}

// karpenter's updateBufferProvisioningStatus: the error appended, the
// loop going on; the Fetch's error appended too, then continue.
func (p *P) buffers(ctx context.Context) error {
	byKey, err := p.byName(ctx)
	if err != nil {
		return err
	}
	var errs []error
	for key, w := range byKey {
		stored := w.DeepCopy()
		if w.Status.Ready {
			continue
		}
		w.Status.Ready = true
		if err := p.client.Status().Patch(ctx, w, client.MergeFromWithOptions(stored, client.MergeFromWithOptimisticLock{})); err != nil { // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example.com/op/internal/patchers\)$`
			errs = append(errs, fmt.Errorf("patching widget %q: %w", key, err))
		}
	}
	return errors.Join(errs...)
}

// err = write, then if err != nil: err is the function's.
func (p *P) assigned(ctx context.Context) error {
	list := &widgetList{}
	err := p.client.List(ctx, list)
	if err != nil {
		return err
	}
	for i := range list.Items {
		w := &list.Items[i]
		w.Status.Size = w.Status.Size + 1
		err = p.client.Status().Update(ctx, w) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example.com/op/internal/patchers\)$`
		if err != nil {
			return err
		}
	}
	return err
}

// errs = append(errs, write), the last of its loop's body.
func (p *P) appended(ctx context.Context) error {
	list := &widgetList{}
	if err := p.client.List(ctx, list); err != nil {
		return err
	}
	var errs []error
	for i := range list.Items {
		w := &list.Items[i]
		w.Status.Ready = w.Status.Size > 0
		errs = append(errs, p.client.Status().Update(ctx, w)) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example.com/op/internal/patchers\)$`
	}
	return errors.Join(errs...)
}

// A helper called per item, returning its write.
func (p *P) markReady(ctx context.Context, w *v1.Widget) error {
	base := w.DeepCopy()
	w.Status.Ready = w.Status.Size > 0
	return p.client.Status().Patch(ctx, w, client.MergeFrom(base)) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example.com/op/internal/patchers\)$`
}

func (p *P) markAll(ctx context.Context) error {
	list := &widgetList{}
	if err := p.client.List(ctx, list); err != nil {
		return err
	}
	for i := range list.Items {
		if err := p.markReady(ctx, &list.Items[i]); err != nil {
			return err
		}
	}
	return nil
}

// The error is logged and the loop goes on after the write: the Fetch
// goes at the write, its error logged as the write's is and the write
// skipped, what a failed write left (nothing after it uses the patcher).
func (p *P) logged(ctx context.Context) int {
	list := &widgetList{}
	if err := p.client.List(ctx, list); err != nil {
		return 0
	}
	n := 0
	for i := range list.Items {
		w := &list.Items[i]
		w.Status.Ready = w.Status.Size > 0
		if err := p.client.Status().Update(ctx, w); err != nil { // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example.com/op/internal/patchers\)$`
			log.Print(err)
		}
		n++
	}
	return n
}

// err = write, then if err != nil that only logs, the loop going on:
// New over the item (the Fetch at the anchor would have its error
// nowhere to go, and the at-write form is an if's own).
func (p *P) loggedAssigned(ctx context.Context) int {
	list := &widgetList{}
	if err := p.client.List(ctx, list); err != nil {
		return 0
	}
	n := 0
	var err error
	for i := range list.Items {
		w := &list.Items[i]
		w.Status.Ready = w.Status.Size > 0
		err = p.client.Status().Update(ctx, w) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example.com/op/internal/patchers\)$`
		if err != nil {
			log.Print(err)
		}
		n++
	}
	return n
}
