// Package advlatebase: a merge patch whose base is taken after the status
// changes, which sends nothing, in shapes the late-base rule must see
// through (s111's adversary). At f05f77ee the change in a helper of the
// package (helperChange) or a method of the kind (methodChange) was not
// seen: no finding, and -fix made the
// patcher after it, its Flush as empty as the patch; and a patch that
// sent a change made after its base (branchChange) was called "an empty
// patch" in the fix's message.
package advlatebase

import (
	"context"

	v1 "example.com/op/api/v1"
	"example.com/op/controllers/rereadhelper"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

type R struct {
	client.Client
}

func markReady(w *v1.Widget) { w.Status.Ready = true } // want markReady:`^statusOnly\[0\]$`

// helperChange: the status changes in a helper before the base.
func (r *R) helperChange(ctx context.Context, req ctrl.Request) error {
	w := &v1.Widget{}
	if err := r.Get(ctx, req.NamespacedName, w); err != nil {
		return err
	}
	markReady(w)
	base := w.DeepCopy()
	return r.Status().Patch(ctx, w, client.MergeFrom(base)) // want `; this patch sends nothing: the base is taken after the status changes at line 33; take it before them, or use the generated patcher$`
}

// aliasChange: the status changes through a pointer to it before the base.
func (r *R) aliasChange(ctx context.Context, req ctrl.Request) error {
	w := &v1.Widget{}
	if err := r.Get(ctx, req.NamespacedName, w); err != nil {
		return err
	}
	st := &w.Status
	st.Ready = true
	base := w.DeepCopy()
	return r.Status().Patch(ctx, w, client.MergeFrom(base)) // want `; this patch sends nothing: the base is taken after the status changes at line 45; take it before them, or use the generated patcher$`
}

// branchChange: the status changes on one path only, before the base.
func (r *R) branchChange(ctx context.Context, req ctrl.Request, ready bool) error {
	w := &v1.Widget{}
	if err := r.Get(ctx, req.NamespacedName, w); err != nil {
		return err
	}
	if ready {
		w.Status.Ready = true
	}
	base := w.DeepCopy()
	w.Status.Size = 2
	return r.Status().Patch(ctx, w, client.MergeFrom(base)) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example\.com/op/internal/patchers\)$`
}

// methodChange: the status changes in a method of the kind before the
// base (Widget.SetCondition, which sets only its conditions).
func (r *R) methodChange(ctx context.Context, req ctrl.Request) error {
	w := &v1.Widget{}
	if err := r.Get(ctx, req.NamespacedName, w); err != nil {
		return err
	}
	w.SetCondition(metav1.Condition{Type: "Ready", Status: "True"})
	base := w.DeepCopy()
	return r.Status().Patch(ctx, w, client.MergeFrom(base)) // want `; this patch sends nothing: the base is taken after the status changes at line 71; take it before them, or use the generated patcher$`
}

// setReady changes only the status and writes it.
func setReady(ctx context.Context, c client.Client, w *v1.Widget) error {
	w.Status.Ready = true
	return c.Status().Update(ctx, w) // want `its caller at line 89 calls it before the patcher of its own writes of w is made`
}

// writerChange: the helper before the base writes the status it changed:
// a base after it is right (the write stored the change), no late base.
func (r *R) writerChange(ctx context.Context, req ctrl.Request) error {
	w := &v1.Widget{}
	if err := r.Get(ctx, req.NamespacedName, w); err != nil {
		return err
	}
	if err := setReady(ctx, r, w); err != nil {
		return err
	}
	base := w.DeepCopy()
	return r.Status().Patch(ctx, w, client.MergeFrom(base)) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example\.com/op/internal/patchers\)$`
}

// otherChange: a helper of another package changes the status (its facts:
// StatusOnly, no write) before the base. At 68b1b549: no finding, and -fix
// made the patcher after the call, its Flush as empty as the patch.
func (r *R) otherChange(ctx context.Context, req ctrl.Request) error {
	w := &v1.Widget{}
	if err := r.Get(ctx, req.NamespacedName, w); err != nil {
		return err
	}
	rereadhelper.MarkSized(w, 3)
	base := w.DeepCopy()
	return r.Status().Patch(ctx, w, client.MergeFrom(base)) // want `; this patch sends nothing: the base is taken after the status changes at line 104; take it before them, or use the generated patcher$`
}

// deepChange: the helper before the base writes the status it changed,
// nine calls deep, beyond what either side follows: no late base, and
// -fix leaves the base where it is (at 68b1b549 -fix took the chain for
// a status change alone and made the patcher at the read, before the
// chain's write: its Flush was then locked on a version that write had
// moved).
func (r *R) deepChange(ctx context.Context, req ctrl.Request) error {
	w := &v1.Widget{}
	if err := r.Get(ctx, req.NamespacedName, w); err != nil {
		return err
	}
	if err := deep1(ctx, r, w); err != nil {
		return err
	}
	base := w.DeepCopy()
	return r.Status().Patch(ctx, w, client.MergeFrom(base)) // want `\(not moved to the patcher: w is handed to deep1 at line 120, before the base at line 123, where w is passed to deep2 at line 127, .* where its status is written at line 147, a write -fix does not move with the caller's: a change through that reference after the base at line 123 would be unseen\)$`
}

func deep1(ctx context.Context, c client.Client, w *v1.Widget) error { return deep2(ctx, c, w) }

func deep2(ctx context.Context, c client.Client, w *v1.Widget) error { return deep3(ctx, c, w) }

func deep3(ctx context.Context, c client.Client, w *v1.Widget) error { return deep4(ctx, c, w) }

func deep4(ctx context.Context, c client.Client, w *v1.Widget) error { return deep5(ctx, c, w) }

func deep5(ctx context.Context, c client.Client, w *v1.Widget) error { return deep6(ctx, c, w) }

func deep6(ctx context.Context, c client.Client, w *v1.Widget) error { return deep7(ctx, c, w) }

func deep7(ctx context.Context, c client.Client, w *v1.Widget) error { return deep8(ctx, c, w) }

func deep8(ctx context.Context, c client.Client, w *v1.Widget) error { return deep9(ctx, c, w) }

func deep9(ctx context.Context, c client.Client, w *v1.Widget) error { return deep10(ctx, c, w) }

func deep10(ctx context.Context, c client.Client, w *v1.Widget) error {
	w.Status.Ready = true
	return c.Status().Update(ctx, w) // want `handwritten status write to Widget`
}

func isReady(w *v1.Widget) bool { return w.Status.Ready } // want isReady:`^statusOnly\[0\]$`

// readerBefore, methodReader: a helper of the package, or a method of the
// kind, that only reads the status before the base: its facts say "at most
// the status" (StatusOnly, Recv statusOnly) but it changes none (Changes,
// RecvChanges), so the patch after it is no late base. At d4979aa7 both
// were called empty and moved to the read (karpenter's object.GVK).
func (r *R) readerBefore(ctx context.Context, req ctrl.Request) error {
	w := &v1.Widget{}
	if err := r.Get(ctx, req.NamespacedName, w); err != nil {
		return err
	}
	if isReady(w) {
		return nil
	}
	base := w.DeepCopy()
	w.Status.Size = 3
	return r.Status().Patch(ctx, w, client.MergeFrom(base)) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example\.com/op/internal/patchers\)$`
}

func (r *R) methodReader(ctx context.Context, req ctrl.Request) error {
	w := &v1.Widget{}
	if err := r.Get(ctx, req.NamespacedName, w); err != nil {
		return err
	}
	if len(w.GetConditions()) > 0 {
		return nil
	}
	base := w.DeepCopy()
	w.Status.Size = 3
	return r.Status().Patch(ctx, w, client.MergeFrom(base)) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example\.com/op/internal/patchers\)$`
}
