// Package advunread: a status write of an object the function makes and
// writes unread (s112). A patcher over it refuses its Flush (it has no
// resourceVersion), so -fix keeps it, naming the line and the Fetch; at
// d4979aa7 the merge patch moved onto NewWidgetStatusPatcher over it, a
// write the server stored made one that always fails, and its lock fix
// would have sent an empty resourceVersion. One read, created or with its
// status handed to a helper still moves.
package advunread

import (
	"context"

	v1 "example.com/op/api/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

type R struct{ client.Client }

func (r *R) fresh(ctx context.Context, name, ns string) error {
	w := &v1.Widget{ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: ns}}
	w.Status.Ready = true
	return r.Status().Update(ctx, w) // want `\(not moved to the patcher: w is made at line 22 and not read from the server before the write: it has no resourceVersion, and a patcher over it refuses its Flush \(object has no resourceVersion\); read it with FetchWidgetStatusPatcher\(ctx, c, key\) and set its status on the object that patcher holds\)$`
}

func (r *R) freshPatch(ctx context.Context, name, ns string) error {
	w := &v1.Widget{ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: ns}}
	base := w.DeepCopy()
	meta.SetStatusCondition(&w.Status.Conditions, metav1.Condition{Type: "Ready", Status: "True"})
	return r.Status().Patch(ctx, w, client.MergeFrom(base)) // want `\(not moved to the patcher: w is made at line 28 .*\) \(no fix: the object is made at line 28 and not read from the server before the write: a lock would send an empty resourceVersion; read it first \(a Get, or the generated patcher's Fetch\)\)$`
}

func (r *R) freshNew(ctx context.Context, key client.ObjectKey) error {
	w := new(v1.Widget)
	w.Name, w.Namespace = key.Name, key.Namespace
	w.SetCondition(metav1.Condition{Type: "Seen", Status: "True"})
	w.Status.Size = 1
	return r.Status().Update(ctx, w) // want `w is made at line 35 and not read from the server before the write`
}

// Read with Get: moves.
func (r *R) read(ctx context.Context, key client.ObjectKey) error {
	w := &v1.Widget{}
	if err := r.Get(ctx, key, w); err != nil {
		return err
	}
	w.Status.Ready = true
	return r.Status().Update(ctx, w) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example\.com/op/internal/patchers\)$`
}

// Created first: not unread (Create gives it its resourceVersion); it
// stays for the reason it did before.
func (r *R) created(ctx context.Context, name, ns string) error {
	w := &v1.Widget{ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: ns}}
	if err := r.Create(ctx, w); err != nil {
		return err
	}
	w.Status.Ready = true
	return r.Status().Update(ctx, w) // want `w is not read with Get in this function before the write`
}

// Read on a loop's later turn: the Get after the write reaches it again.
func (r *R) loop(ctx context.Context, key client.ObjectKey) error {
	w := &v1.Widget{ObjectMeta: metav1.ObjectMeta{Name: key.Name, Namespace: key.Namespace}}
	for i := 0; i < 3; i++ {
		w.Status.Size = i
		if err := r.Status().Update(ctx, w); err != nil { // want `w is not read with Get in this function before the write`
			return err
		}
		if err := r.Get(ctx, key, w); err != nil {
			return err
		}
	}
	return nil
}

// Copied from an object read: CopyFrom may give it its resourceVersion.
func (r *R) copied(ctx context.Context, src *v1.Widget) error { // want copied:`^statusOnly\[1\]$`
	w := &v1.Widget{}
	w.CopyFrom(src)
	w.Status.Ready = true
	return r.Status().Update(ctx, w) // want `w is not read with Get in this function before the write`
}
