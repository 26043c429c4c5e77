// Package auditunread: an Update, or a locked merge patch, of an object
// nothing gave a resourceVersion (s112). At d4979aa7 each was called
// optimistic ("Update sends the object's resourceVersion",
// "MergeFromWithOptimisticLock"): an object the function makes and writes
// unread sends none, and a lock on a cleared one sends it empty.
package auditunread

import (
	"context"
	"encoding/json"

	v1 "example.com/api/v1"
	appsv1 "k8s.io/api/apps/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

type Reconciler struct{ client.Client }

// Made, named, written: nothing read it.
func (r *Reconciler) fresh(ctx context.Context, name, ns string) {
	d := &appsv1.Deployment{ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: ns}}
	d.Status.Replicas = 3
	_ = r.Status().Update(ctx, d) // want `^blind: Status\(\).Update of Deployment: Update sends no resourceVersion: the object is made at line 23 and given no resourceVersion before the write \(no Get, Create or other call is handed it\): the server applies it without a lock where the kind allows that, or refuses it$`
}

// A value, its name set field by field and by setters.
func (r *Reconciler) value(ctx context.Context, src *appsv1.Deployment) {
	n := appsv1.Deployment{}
	n.Name, n.Namespace = src.Name, src.Namespace
	n.Labels = src.Labels
	n.Status = src.Status
	_ = r.Status().Update(ctx, &n) // want `^blind: Status\(\).Update of Deployment: Update sends no resourceVersion: the object is made at line 30`
}

// A locked patch of a made object: its lock sends an empty resourceVersion.
func (r *Reconciler) freshLocked(ctx context.Context, name string) {
	w := &v1.Widget{}
	w.Name = name
	base := w.DeepCopy()
	w.Status.Ready = true
	_ = r.Status().Patch(ctx, w, client.MergeFromWithOptions(base, client.MergeFromWithOptimisticLock{})) // want `^blind: Status\(\).Patch of Widget: the lock sends the object's resourceVersion, which is empty: the object is made at line 39`
}

// The resourceVersion cleared before a locked patch.
func (r *Reconciler) clearedLocked(ctx context.Context, d *appsv1.Deployment) {
	base := d.DeepCopy()
	d.Status.Replicas = 2
	d.ResourceVersion = ""
	_ = r.Status().Patch(ctx, d, client.MergeFromWithOptions(base, client.MergeFromWithOptimisticLock{})) // want `^blind: Status\(\).Patch of Deployment: resourceVersion cleared before the patch, whose lock sends it empty$`
}

// The metadata replaced by a literal without one.
func (r *Reconciler) replacedMeta(ctx context.Context, d *appsv1.Deployment) {
	d.ObjectMeta = metav1.ObjectMeta{Name: d.Name, Namespace: d.Namespace}
	_ = r.Status().Update(ctx, d) // want `^blind: Status\(\).Update of Deployment: resourceVersion cleared before Update$`
}

func clearRV(d *appsv1.Deployment) { d.SetResourceVersion("") }

func forget(d *appsv1.Deployment) { clearRV(d) }

// Cleared by a function of the package, two calls deep.
func (r *Reconciler) clearedByHelper(ctx context.Context, d *appsv1.Deployment) {
	forget(d)
	_ = r.Status().Update(ctx, d) // want `^blind: Status\(\).Update of Deployment: resourceVersion cleared before Update$`
}

// Read with Get: optimistic.
func (r *Reconciler) read(ctx context.Context, key client.ObjectKey) {
	d := &appsv1.Deployment{}
	if err := r.Get(ctx, key, d); err != nil {
		return
	}
	_ = r.Status().Update(ctx, d) // want `^optimistic: Status\(\).Update of Deployment: Update sends the object's resourceVersion$`
}

// Created first: Create gives it its resourceVersion.
func (r *Reconciler) created(ctx context.Context, name string) {
	w := &v1.Widget{ObjectMeta: metav1.ObjectMeta{Name: name}}
	if err := r.Create(ctx, w); err != nil {
		return
	}
	w.Status.Ready = true
	_ = r.Status().Update(ctx, w) // want `^optimistic: `
}

// Decoded: json.Unmarshal may give it one.
func (r *Reconciler) decoded(ctx context.Context, data []byte) {
	var w v1.Widget
	if err := json.Unmarshal(data, &w); err != nil {
		return
	}
	_ = r.Status().Update(ctx, &w) // want `^optimistic: `
}

// Its metadata copied from an object read: optimistic.
func (r *Reconciler) copiedMeta(ctx context.Context, src *appsv1.Deployment) {
	d := &appsv1.Deployment{ObjectMeta: src.ObjectMeta}
	_ = r.Status().Update(ctx, d) // want `^optimistic: `
}

// Its resourceVersion given in the literal.
func (r *Reconciler) given(ctx context.Context, name, rv string) {
	d := &appsv1.Deployment{ObjectMeta: metav1.ObjectMeta{Name: name, ResourceVersion: rv}}
	_ = r.Status().Update(ctx, d) // want `^optimistic: `
}

// Read on one path only: on the other it is written unread, but a read
// reaches the write, so the verdict stays the read's.
func (r *Reconciler) readOnOnePath(ctx context.Context, key client.ObjectKey, fetch bool) {
	d := &appsv1.Deployment{}
	d.Name = key.Name
	if fetch {
		_ = r.Get(ctx, key, d)
	}
	_ = r.Status().Update(ctx, d) // want `^optimistic: `
}

// An Unstructured keeps its resourceVersion in a map: not judged.
func (r *Reconciler) unstructuredObj(ctx context.Context, content map[string]any) {
	u := &unstructured.Unstructured{}
	u.Object = content
	_ = r.Status().Update(ctx, u) // want `^optimistic: `
}

// Read, then its metadata replaced by a literal: cleared.
func (r *Reconciler) readThenReplaced(ctx context.Context, key client.ObjectKey) {
	d := &appsv1.Deployment{}
	if err := r.Get(ctx, key, d); err != nil {
		return
	}
	d.ObjectMeta = metav1.ObjectMeta{Name: key.Name, Namespace: key.Namespace}
	_ = r.Status().Update(ctx, d) // want `^blind: Status\(\).Update of Deployment: resourceVersion cleared before Update$`
}

// ping and pong hand the object to each other three times: the walks of
// what a function does to its parameter (its resourceVersion, its status)
// ask each once (their first version walked 3^24 bodies, and did not end).
func ping(d *appsv1.Deployment, n int) { // want ping:`^statusOnly\[0\]$`
	if n > 0 {
		pong(d, n-1)
		pong(d, n-2)
		pong(d, n-3)
	}
}

func pong(d *appsv1.Deployment, n int) { // want pong:`^statusOnly\[0\]$`
	if n > 0 {
		ping(d, n-1)
		ping(d, n-2)
		ping(d, n-3)
	}
}

func (r *Reconciler) recursive(ctx context.Context, d *appsv1.Deployment) {
	ping(d, 3)
	_ = r.Status().Update(ctx, d) // want `^optimistic: `
}
