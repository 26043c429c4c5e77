// Package migratealias: the object's spec or metadata changed through a
// reference into it (a map, a slice or a pointer) between its read and
// its status write, which no assignment to the field shows. -fix keeps
// those writes, with why, and moves the ones that only read.
package migratealias

import (
	"context"
	"fmt"
	"slices"
	"sort"
	"strings"

	v1 "example.com/op/api/v1"
	"example.com/op/objutil"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

type Reconciler struct {
	client.Client
}

// Changed by builtins and sorts.
func (r *Reconciler) deleted(ctx context.Context, key client.ObjectKey) error {
	w := &v1.Widget{}
	if err := r.Get(ctx, key, w); err != nil {
		return err
	}
	delete(w.Spec.Labels, "stale")
	w.Status.Ready = true
	return r.Status().Update(ctx, w) // want `\(not moved to the patcher: w.Spec may be changed at line 29: w.Spec.Labels, a reference into the object, is passed to the builtin delete, and the patcher writes only the status \(Flush returns patcher.ErrNonStatusChange\): make that change on a DeepCopy\(\) of the object, or keep this write\)$`
}

func (r *Reconciler) copied(ctx context.Context, key client.ObjectKey) error {
	w := &v1.Widget{}
	if err := r.Get(ctx, key, w); err != nil {
		return err
	}
	copy(w.Finalizers, []string{"x"})
	return r.Status().Update(ctx, w) // want `\(not moved to the patcher: w.Finalizers may be changed at line 39: w.Finalizers, a reference into the object, is passed to the builtin copy, and the patcher writes only the status \(Flush returns patcher.ErrNonStatusChange\): make that change on a DeepCopy\(\) of the object, or keep this write\)$`
}

func (r *Reconciler) sorted(ctx context.Context, key client.ObjectKey) error {
	w := &v1.Widget{}
	if err := r.Get(ctx, key, w); err != nil {
		return err
	}
	sort.Strings(w.Finalizers)
	return r.Status().Update(ctx, w) // want `\(not moved to the patcher: w.Finalizers may be changed at line 48: w.Finalizers, a reference into the object, is passed to sort.Strings \(Strings is of sort, whose bodies -fix does not analyse\), and the patcher writes only the status \(Flush returns patcher.ErrNonStatusChange\): make that change on a DeepCopy\(\) of the object, or keep this write\)$`
}

func (r *Reconciler) slicesSorted(ctx context.Context, key client.ObjectKey) error {
	w := &v1.Widget{}
	if err := r.Get(ctx, key, w); err != nil {
		return err
	}
	slices.Sort(w.Finalizers)
	return r.Status().Update(ctx, w) // want `\(not moved to the patcher: w.Finalizers may be changed at line 57: w.Finalizers, a reference into the object, is passed to slices.Sort \(Sort is of slices, whose bodies -fix does not analyse\), and the patcher writes only the status \(Flush returns patcher.ErrNonStatusChange\): make that change on a DeepCopy\(\) of the object, or keep this write\)$`
}

func (r *Reconciler) cleared(ctx context.Context, key client.ObjectKey) error {
	w := &v1.Widget{}
	if err := r.Get(ctx, key, w); err != nil {
		return err
	}
	clear(w.Spec.Labels)
	return r.Status().Update(ctx, w) // want `\(not moved to the patcher: w.Spec may be changed at line 66: w.Spec.Labels, a reference into the object, is passed to the builtin clear, and the patcher writes only the status \(Flush returns patcher.ErrNonStatusChange\): make that change on a DeepCopy\(\) of the object, or keep this write\)$`
}

// Changed by a method of a field, or through what a getter returns.
func (r *Reconciler) setter(ctx context.Context, key client.ObjectKey) error {
	w := &v1.Widget{}
	if err := r.Get(ctx, key, w); err != nil {
		return err
	}
	w.ObjectMeta.SetFinalizers(nil)
	return r.Status().Update(ctx, w) // want `\(not moved to the patcher: w.ObjectMeta may be changed at line 76: w.ObjectMeta.SetFinalizers is called \(ObjectMeta.SetFinalizers is of k8s.io/apimachinery/pkg/apis/meta/v1, whose bodies -fix does not analyse\), and the patcher writes only the status \(Flush returns patcher.ErrNonStatusChange\): make that change on a DeepCopy\(\) of the object, or keep this write\)$`
}

func (r *Reconciler) throughGetter(ctx context.Context, key client.ObjectKey) error {
	w := &v1.Widget{}
	if err := r.Get(ctx, key, w); err != nil {
		return err
	}
	w.GetFinalizers()[0] = "x"
	return r.Status().Update(ctx, w) // want `\(not moved to the patcher: what w.GetFinalizers\(\) returns is changed at line 85: the patcher writes only the status \(Flush returns patcher.ErrNonStatusChange\): make that change on a DeepCopy\(\) of the object, or keep this write\)$`
}

func (r *Reconciler) throughLabels(ctx context.Context, key client.ObjectKey) error {
	w := &v1.Widget{}
	if err := r.Get(ctx, key, w); err != nil {
		return err
	}
	w.GetLabels()["k"] = "v"
	return r.Status().Update(ctx, w) // want `\(not moved to the patcher: what w.GetLabels\(\) returns is changed at line 94: the patcher writes only the status \(Flush returns patcher.ErrNonStatusChange\): make that change on a DeepCopy\(\) of the object, or keep this write\)$`
}

// Changed through a local alias, or the alias a function of another
// package returns.
func (r *Reconciler) localAlias(ctx context.Context, key client.ObjectKey) error {
	w := &v1.Widget{}
	if err := r.Get(ctx, key, w); err != nil {
		return err
	}
	l := w.Spec.Labels
	l["k"] = "v"
	return r.Status().Update(ctx, w) // want `\(not moved to the patcher: w.Spec may be changed at line 105: w.Spec.Labels, a reference into the object, is assigned to l, where l\["k"\] is changed at line 106, and the patcher writes only the status \(Flush returns patcher.ErrNonStatusChange\): make that change on a DeepCopy\(\) of the object, or keep this write\)$`
}

func (r *Reconciler) returnedAlias(ctx context.Context, key client.ObjectKey) error {
	w := &v1.Widget{}
	if err := r.Get(ctx, key, w); err != nil {
		return err
	}
	objutil.SpecLabels(w)["k"] = "v"
	return r.Status().Update(ctx, w) // want `\(not moved to the patcher: w is passed to objutil.SpecLabels at line 115, where what it returns, a reference into w, is changed at line 115\)`
}

// Only read: compared, measured, indexed, ranged over, formatted, passed
// as a string, through getters and another package's reader. Moved.
func (r *Reconciler) reads(ctx context.Context, key client.ObjectKey) error {
	w := &v1.Widget{}
	if err := r.Get(ctx, key, w); err != nil {
		return err
	}
	n := len(w.Spec.Labels) + len(w.GetFinalizers())
	for k, v := range w.Spec.Labels {
		n += len(k) + len(v)
	}
	s := fmt.Sprint(w.Spec.Size) + strings.ToUpper(w.Name) + w.Spec.Labels["k"] + w.GetLabels()["k"] + w.GetName() + objutil.LabelOf(w, "k")
	ready := w.Spec.Labels != nil && w.DeletionTimestamp.IsZero() && w.GetGeneration() > 0 && slices.Contains(w.Finalizers, "f")
	if v, ok := w.Spec.Labels["k"]; ok {
		s += v
	}
	w.Status.Ready = ready && n+len(s) > 0
	return r.Status().Update(ctx, w) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example.com/op/internal/patchers\)$`
}

// The facts this package exports: a function that hands out a reference
// into the object returns it (its callers follow what it returns); one
// that reads a value changes at most the status.
func specLabels(w *v1.Widget) map[string]string { return w.Spec.Labels } // want specLabels:`^returns\[0:\[0\]\]$`

func sortedFinalizers(w *v1.Widget) { sort.Strings(w.GetFinalizers()) }

func labelOf(w *v1.Widget) string { return w.Spec.Labels["k"] + w.GetLabels()["k"] } // want labelOf:`^statusOnly\[0\]$`

// Called as method expressions: the receiver is the first argument.
func (r *Reconciler) receiverChanged(ctx context.Context, key client.ObjectKey, other *v1.Widget) error { // want receiverChanged:`^statusOnly\[2\]$`
	w := &v1.Widget{}
	if err := r.Get(ctx, key, w); err != nil {
		return err
	}
	(*v1.Widget).CopyFrom(w, other)
	return r.Status().Update(ctx, w) // want `\(not moved to the patcher: w is passed to v1.Widget.CopyFrom at line 154: it may change more than its status\)$`
}

func (r *Reconciler) sourceRead(ctx context.Context, key client.ObjectKey, other *v1.Widget) error {
	w := &v1.Widget{}
	if err := r.Get(ctx, key, w); err != nil {
		return err
	}
	(*v1.Widget).CopyFrom(other, w)
	w.Status.Ready = true
	return r.Status().Update(ctx, w) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example.com/op/internal/patchers\)$`
}

func (r *Reconciler) localChanged(ctx context.Context, key client.ObjectKey, other *v1.Widget) error { // want localChanged:`^statusOnly\[2\]$`
	w := &v1.Widget{}
	if err := r.Get(ctx, key, w); err != nil {
		return err
	}
	(*Reconciler).resize(r, w, other)
	return r.Status().Update(ctx, w) // want `\(not moved to the patcher: w is passed to Reconciler.resize at line 173, where dst.Spec is changed at line 178: the patcher writes only the status \(Flush returns patcher.ErrNonStatusChange\): make that change on a DeepCopy\(\) of the object, or keep this write\)$`
}

// resize changes dst's spec and reads src.
func (r *Reconciler) resize(dst, src *v1.Widget) { dst.Spec.Size = src.Spec.Size } // want resize:`^statusOnly\[1\]$`

// Aliased, or captured by a function literal that changes it, before the
// read: the change comes after it, through the alias or the call.
func (r *Reconciler) aliasedBefore(ctx context.Context, key client.ObjectKey) error {
	w := &v1.Widget{}
	a := w
	if err := r.Get(ctx, key, w); err != nil {
		return err
	}
	a.Spec.Size++
	return r.Status().Update(ctx, w) // want `\(not moved to the patcher: w is aliased or handed on at line 184, before the read: a change through that reference after the read would be unseen\)$`
}

func (r *Reconciler) capturedBefore(ctx context.Context, key client.ObjectKey) error {
	w := &v1.Widget{}
	grow := func() { w.Spec.Size++ }
	if err := r.Get(ctx, key, w); err != nil {
		return err
	}
	grow()
	return r.Status().Update(ctx, w) // want `\(not moved to the patcher: a function literal declared at line 194, before the read, captures w and may change it when called after: w.Spec is changed at line 194: the patcher writes only the status \(Flush returns patcher.ErrNonStatusChange\): make that change on a DeepCopy\(\) of the object, or keep this write\)$`
}

func (r *Reconciler) labelsBefore(ctx context.Context, key client.ObjectKey) error {
	w := &v1.Widget{}
	l := w.Spec.Labels
	if err := r.Get(ctx, key, w); err != nil {
		return err
	}
	l["k"] = "v"
	return r.Status().Update(ctx, w) // want `\(not moved to the patcher: a reference into w is kept at line 204, before the read \(w.Spec.Labels, a reference into the object, is assigned to l, where l\["k"\] is changed at line 208\): a change through it after the read would be unseen\)$`
}

// Captured by a function literal that only reads it: moved.
func (r *Reconciler) readBefore(ctx context.Context, key client.ObjectKey) error {
	w := &v1.Widget{}
	w.Name = key.Name
	ready := func() bool { return w.Spec.Size > 0 }
	if err := r.Get(ctx, key, w); err != nil {
		return err
	}
	w.Status.Ready = ready()
	return r.Status().Update(ctx, w) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example.com/op/internal/patchers\)$`
}

// Put in a slice by a builtin, or converted: neither is followed.
func (r *Reconciler) appended(ctx context.Context, key client.ObjectKey) error {
	w := &v1.Widget{}
	if err := r.Get(ctx, key, w); err != nil {
		return err
	}
	all := append([]*v1.Widget{}, w)
	all[0].Spec.Size++
	return r.Status().Update(ctx, w) // want `\(not moved to the patcher: w is passed to the builtin append at line 230, and what it makes is not followed: it may change more than its status\)$`
}

func (r *Reconciler) converted(ctx context.Context, key client.ObjectKey) error {
	w := &v1.Widget{}
	if err := r.Get(ctx, key, w); err != nil {
		return err
	}
	obj := client.Object(w)
	obj.SetFinalizers(nil)
	return r.Status().Update(ctx, w) // want `\(not moved to the patcher: w is converted to client.Object at line 240, and the converted value is not followed: it may change more than its status\)$`
}

// A narrower interface of one's own (GetName alone) is not taken for an
// object: it has no fact, as it does not reach metav1, and the
// export-data driver does not load such packages from source.
type named interface{ GetName() string }

func nameOf(n named) string { return n.GetName() }

// An interface that embeds client.Object is: its fact says so.
type kubeNamed interface{ client.Object }

func kubeNameOf(n kubeNamed) string { return n.GetName() } // want kubeNameOf:`^statusOnly\[0\]$`

// An address taken in the spec before the read is a reference kept: a
// change through it after the read; stays. One taken in the status is
// the status the patcher writes: moved.
func (r *Reconciler) specAddrBefore(ctx context.Context, key client.ObjectKey) error {
	w := &v1.Widget{}
	spec := &w.Spec
	if err := r.Get(ctx, key, w); err != nil {
		return err
	}
	spec.Size++
	return r.Status().Update(ctx, w) // want `\(not moved to the patcher: a reference into w is kept at line 262, before the read \(the address of w.Spec is taken\): a change through it after the read would be unseen\)$`
}

func (r *Reconciler) statusAddrBefore(ctx context.Context, key client.ObjectKey) error {
	w := &v1.Widget{}
	st := &w.Status
	if err := r.Get(ctx, key, w); err != nil {
		return err
	}
	st.Ready = w.Spec.Size > 0
	return r.Status().Update(ctx, w) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example.com/op/internal/patchers\)$`
}
