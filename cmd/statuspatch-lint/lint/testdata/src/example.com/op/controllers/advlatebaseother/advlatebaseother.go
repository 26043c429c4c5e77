// Package advlatebaseother: a merge patch whose base is taken after a
// helper of another package changed the status (s112). At 68b1b549
// otherChange had no finding and -fix made the patcher after the call,
// its Flush as empty as the patch; the writers (otherWriter,
// localWriter) must make no late base: their write stored the change.
package advlatebaseother

import (
	"context"

	v1 "example.com/op/api/v1"
	"example.com/op/controllers/advlatebaseother/conds"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

type R struct {
	client.Client
}

// otherChange: a helper of another package that changes only the status
// and writes nothing, before the base: the patch sends nothing.
func (r *R) otherChange(ctx context.Context, req ctrl.Request) error {
	w := &v1.Widget{}
	if err := r.Get(ctx, req.NamespacedName, w); err != nil {
		return err
	}
	conds.MarkReady(w)
	base := w.DeepCopy()
	return r.Status().Patch(ctx, w, client.MergeFrom(base)) // want `; this patch sends nothing: the base is taken after the status changes at line 28; take it before them, or use the generated patcher$`
}

// otherWriter: the helper writes the status it changed (through Save):
// a base after it is right.
func (r *R) otherWriter(ctx context.Context, req ctrl.Request) error {
	w := &v1.Widget{}
	if err := r.Get(ctx, req.NamespacedName, w); err != nil {
		return err
	}
	if err := conds.MarkAndSave(ctx, r, w); err != nil {
		return err
	}
	base := w.DeepCopy()
	return r.Status().Patch(ctx, w, client.MergeFrom(base)) // want `\(not moved to the patcher: w is handed to conds.MarkAndSave at line 40, before the base at line 43, where w is passed to Save at conds.go:23, where its status is written at conds.go:17, a write -fix does not move with the caller's: a change through that reference after the base at line 43 would be unseen\)$`
}

// markThenSave changes the status and has a helper of another package
// write it.
func markThenSave(ctx context.Context, c client.Client, w *v1.Widget) error {
	w.Status.Ready = true
	return conds.Save(ctx, c, w)
}

// localWriter: a function of the package whose status write is another
// package's: a base after it is right.
func (r *R) localWriter(ctx context.Context, req ctrl.Request) error {
	w := &v1.Widget{}
	if err := r.Get(ctx, req.NamespacedName, w); err != nil {
		return err
	}
	if err := markThenSave(ctx, r, w); err != nil {
		return err
	}
	base := w.DeepCopy()
	return r.Status().Patch(ctx, w, client.MergeFrom(base)) // want `\(not moved to the patcher: w is handed to markThenSave at line 61, before the base at line 64, where w is passed to conds.Save at line 51, where its status is written at conds.go:17, a write -fix does not move with the caller's: a change through that reference after the base at line 64 would be unseen\)$`
}

// otherReader: a helper of another package that only reads the status
// before the base: no late base (at d4979aa7 it was called empty).
func (r *R) otherReader(ctx context.Context, req ctrl.Request) error {
	w := &v1.Widget{}
	if err := r.Get(ctx, req.NamespacedName, w); err != nil {
		return err
	}
	if conds.IsReady(w) {
		return nil
	}
	base := w.DeepCopy()
	w.Status.Size = 3
	return r.Status().Patch(ctx, w, client.MergeFrom(base)) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example\.com/op/internal/patchers\)$`
}
