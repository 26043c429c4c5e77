package migratehelper

import (
	"context"

	v1 "example.com/op/api/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// Helpers -fix leaves, each with why: a caller that cannot make the
// patcher where it read the object keeps every caller as it is.

// Exported: callers in other packages are not seen.
func (r *Reconciler) UpdateStatus(ctx context.Context, w *v1.Widget) error { // want UpdateStatus:"why"
	return r.client.Status().Update(ctx, w) // want `\(not moved to the patcher: w is a parameter of UpdateStatus: UpdateStatus is an exported method: -fix moves an exported helper with its callers only when it is a function, not a method; by hand: have it take a \*patchers.WidgetStatusPatcher in place of w \(each caller makes it with patchers.NewWidgetStatusPatcher where it reads w\) and call its Flush\(ctx\) in place of this write\)$`
}

// A caller changes the spec between the read and the call.
func (r *Reconciler) growAndWrite(ctx context.Context, key client.ObjectKey) error {
	w := &v1.Widget{}
	if err := r.client.Get(ctx, key, w); err != nil {
		return err
	}
	w.Grow()
	return r.writeGrown(ctx, w)
}

func (r *Reconciler) fineCaller(ctx context.Context, key client.ObjectKey) error {
	w := &v1.Widget{}
	if err := r.client.Get(ctx, key, w); err != nil {
		return err
	}
	return r.writeGrown(ctx, w)
}

func (r *Reconciler) writeGrown(ctx context.Context, w *v1.Widget) error {
	return r.client.Status().Update(ctx, w) // want `\(not moved to the patcher: w is a parameter of writeGrown: its caller at line 25: w.Grow is called at line 24, where w.Spec is changed at types.go:\d+: the patcher writes only the status`
}

// A caller whose object is not read.
func (r *Reconciler) fresh(ctx context.Context) error {
	w := &v1.Widget{}
	w.Name = "made here"
	return r.writeFresh(ctx, w)
}

func (r *Reconciler) writeFresh(ctx context.Context, w *v1.Widget) error {
	return r.client.Status().Update(ctx, w) // want `\(not moved to the patcher: w is a parameter of writeFresh: its caller at line 44: w is not read with Get in this function before its call of writeFresh: where its status changes start is not seen; make NewWidgetStatusPatcher there and pass it\)$`
}

// A copy of a read changed before the copy: the copy is not what was read.
func (r *Reconciler) changedBeforeCopy(ctx context.Context, key client.ObjectKey) error {
	old, err := r.getWidget(ctx, key)
	if err != nil {
		return err
	}
	old.Spec.Size = 3
	w := old.DeepCopy()
	return r.writeCopy(ctx, w)
}

func (r *Reconciler) writeCopy(ctx context.Context, w *v1.Widget) error {
	return r.client.Status().Update(ctx, w) // want `\(not moved to the patcher: w is a parameter of writeCopy: its caller at line 59: w is old\.DeepCopy\(\) at line 58, a copy of old's read at line 53, but old is changed or handed on at line 57 \(old\.Spec\.Size\), between them: the copy may not be what the server stored, and -fix makes the patcher at a copy only of an object unchanged since its read\)$`
}

// A getter that changes the object it read: its result is not what the
// server stored.
func (r *Reconciler) getDefaulted(ctx context.Context, key client.ObjectKey) (*v1.Widget, error) {
	w := &v1.Widget{}
	if err := r.client.Get(ctx, key, w); err != nil {
		return nil, err
	}
	w.Spec.Size = 1
	return w, nil
}

func (r *Reconciler) viaDefaulted(ctx context.Context, key client.ObjectKey) error {
	old, err := r.getDefaulted(ctx, key)
	if err != nil {
		return err
	}
	w := old.DeepCopy()
	return r.writeDefaulted(ctx, w)
}

func (r *Reconciler) writeDefaulted(ctx context.Context, w *v1.Widget) error {
	return r.client.Status().Update(ctx, w) // want `\(not moved to the patcher: w is a parameter of writeDefaulted: its caller at line 83: w is not read with Get in this function before its call of writeDefaulted: where its status changes start is not seen; make NewWidgetStatusPatcher there and pass it\)$`
}

// Used as a value.
func (r *Reconciler) byValue(ctx context.Context, key client.ObjectKey) error {
	w := &v1.Widget{}
	if err := r.client.Get(ctx, key, w); err != nil {
		return err
	}
	write := r.writeValue
	return write(ctx, w)
}

func (r *Reconciler) writeValue(ctx context.Context, w *v1.Widget) error {
	return r.client.Status().Update(ctx, w) // want `\(not moved to the patcher: w is a parameter of writeValue: it is used at line 96 other than in a call\)$`
}

// Used by a test file of the package (Config.TestRefs).
func (r *Reconciler) testCaller(ctx context.Context, key client.ObjectKey) error {
	w := &v1.Widget{}
	if err := r.client.Get(ctx, key, w); err != nil {
		return err
	}
	return r.usedByTests(ctx, w)
}

func (r *Reconciler) usedByTests(ctx context.Context, w *v1.Widget) error {
	return r.client.Status().Update(ctx, w) // want `\(not moved to the patcher: w is a parameter of usedByTests: a test file of the package uses usedByTests: its calls there cannot be moved\)$`
}

// The caller also writes the object's status: one patcher, the helper's.
func (r *Reconciler) alsoDirect(ctx context.Context, key client.ObjectKey) error {
	w := &v1.Widget{}
	if err := r.client.Get(ctx, key, w); err != nil {
		return err
	}
	if err := r.writeAlso(ctx, w); err != nil {
		return err
	}
	w.Status.Ready = true
	return r.client.Status().Update(ctx, w) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example.com/op/internal/patchers\)$`
}

func (r *Reconciler) writeAlso(ctx context.Context, w *v1.Widget) error {
	return r.client.Status().Update(ctx, w) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example.com/op/internal/patchers\)$`
}

// The helper changes the spec before writing.
func (r *Reconciler) specCaller(ctx context.Context, key client.ObjectKey) error {
	w := &v1.Widget{}
	if err := r.client.Get(ctx, key, w); err != nil {
		return err
	}
	return r.writeSpec(ctx, w)
}

func (r *Reconciler) writeSpec(ctx context.Context, w *v1.Widget) error {
	w.Spec.Size = 2
	return r.client.Status().Update(ctx, w) // want `\(not moved to the patcher: w is a parameter of writeSpec: w.Spec is changed at line 144: the patcher writes only the status \(Flush returns patcher.ErrNonStatusChange\): make that change on a DeepCopy\(\) of the object, or keep this write\)$`
}

// A parameter written, read again, and written again: the first write has
// no read before it.
func (r *Reconciler) writeReadWrite(ctx context.Context, key client.ObjectKey, w *v1.Widget) error {
	if err := r.client.Status().Update(ctx, w); err != nil { // want `\(not moved to the patcher: w is a parameter of writeReadWrite: writeReadWrite writes it more than once and reads it again with Get at line 154: the patcher its callers pass would not hold that read\)$`
		return err
	}
	if err := r.client.Get(ctx, key, w); err != nil {
		return err
	}
	w.Status.Ready = true
	return r.client.Status().Update(ctx, w) // want `\(not moved to the patcher: the status write of w at line 151 has no read of w before it in this function, and the writes of w in this function move together\)$`
}

// A caller whose base is not a copy of the object it passes.
func (r *Reconciler) otherBase(ctx context.Context, key client.ObjectKey, other *v1.Widget) error {
	w := &v1.Widget{}
	if err := r.client.Get(ctx, key, w); err != nil {
		return err
	}
	w.Status.Ready = true
	return r.patchFrom(ctx, w, other)
}

func (r *Reconciler) patchFrom(ctx context.Context, w, base *v1.Widget) error {
	return r.client.Status().Patch(ctx, w, client.MergeFrom(base)) // want `\(not moved to the patcher: w is a parameter of patchFrom: its caller at line 168: the base other is a parameter of otherBase: the patcher is made where its callers take it; move the write there\)$`
}

// A ready-made patch taken at the call, after the status changed: an
// empty patch as written, whose base -fix does not guess.
func (r *Reconciler) lateCaller(ctx context.Context, key client.ObjectKey) error {
	w := &v1.Widget{}
	if err := r.client.Get(ctx, key, w); err != nil {
		return err
	}
	w.Status.Ready = true
	return r.writeLate(ctx, w, client.MergeFrom(w.DeepCopy()))
}

func (r *Reconciler) writeLate(ctx context.Context, w *v1.Widget, patch client.Patch) error {
	return r.client.Status().Patch(ctx, w, patch) // want `\(not moved to the patcher: w is a parameter of writeLate: its caller at line 183: the patch is taken at the call \(client.MergeFrom\(w.DeepCopy\(\)\) there is an empty patch\): take the base where w is read, or move the write by hand\)`
}

// Exported methods, each naming what keeps it: at 20b6c52 both said "a
// call through an interface or a method value is not seen", and so did
// UpdateStatus above, called through neither.

// Used as a method value.
type Marker struct{ client client.Client }

func (m *Marker) MarkReady(ctx context.Context, w *v1.Widget) error { // want MarkReady:"why"
	return m.client.Status().Update(ctx, w) // want `\(not moved to the patcher: w is a parameter of MarkReady: MarkReady is an exported method, used as a method value at line 202, whose calls -fix does not follow; by hand: `
}

func (m *Marker) markAll(ctx context.Context, ws []*v1.Widget) error {
	mark := m.MarkReady
	for _, w := range ws {
		if err := mark(ctx, w); err != nil {
			return err
		}
	}
	return nil
}

// Its type satisfies an interface of the package through it.
type StatusWriter interface {
	WriteStatus(ctx context.Context, w *v1.Widget) error
}

type Writer struct{ client client.Client }

func (wr *Writer) WriteStatus(ctx context.Context, w *v1.Widget) error { // want WriteStatus:"why"
	return wr.client.Status().Update(ctx, w) // want `\(not moved to the patcher: w is a parameter of WriteStatus: WriteStatus is an exported method, and its type satisfies StatusWriter, which has WriteStatus: calls through it are not seen; by hand: `
}
