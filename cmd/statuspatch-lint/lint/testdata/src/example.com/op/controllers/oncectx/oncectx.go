// Package oncectx: issue 80's decisions that call a function of the
// package given ctx. The callee's body decides whether the decision
// moves into Retry: one that only reads (ctx handed to a logger, a
// client's Get or List into its own local), also recursively, runs again
// on each attempt, as retry.RetryOnConflict's closure ran it; one that
// writes to the cluster (a Create), records an event or sets what
// outlives the call keeps the decision out of Retry, naming the callee's
// line. A function of another package, whose body is not seen, keeps it
// too, saying so.
package oncectx

import (
	"context"

	v1 "example.com/op/api/v1"
	"example.com/op/ctxutil"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/client-go/tools/events"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/log"
)

type widgetList struct{ Items []v1.Widget }

func (l *widgetList) DeepCopyObject() runtime.Object { return l }

type R struct {
	client.Client
	Recorder events.EventRecorder
	seen     map[string]bool
}

// phase decides from the status and the spec; ctx goes to a logger.
func (r *R) phase(ctx context.Context, w *v1.Widget) bool { // want phase:`^statusOnly\[1\]$`
	log.FromContext(ctx).Info("phase", "size", w.Status.Size)
	return w.Status.Size >= w.Spec.Size
}

// A value decided by a callee that only reads: the decision, the value
// with it, moves into Retry.
func (r *R) reads(ctx context.Context, key client.ObjectKey) error {
	w := &v1.Widget{}
	if err := r.Get(ctx, key, w); err != nil {
		return err
	}
	ready := r.phase(ctx, w)
	w.Status.Ready = ready
	return r.Status().Update(ctx, w) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example\.com/op/internal/patchers\)$`
}

// count lists into its own local: a read of the cluster, which each
// attempt makes again.
func (r *R) count(ctx context.Context) int {
	list := &widgetList{}
	if err := r.List(ctx, list); err != nil {
		return 0
	}
	return len(list.Items)
}

// A callee that Lists: into Retry.
func (r *R) lists(ctx context.Context, key client.ObjectKey) error {
	w := &v1.Widget{}
	if err := r.Get(ctx, key, w); err != nil {
		return err
	}
	if w.Status.Size == 0 {
		w.Status.Size = r.count(ctx)
	}
	return r.Status().Update(ctx, w) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example\.com/op/internal/patchers\)$`
}

// ensureChild creates a child: a write to the cluster.
func (r *R) ensureChild(ctx context.Context, w *v1.Widget) error { // want ensureChild:`^statusOnly\[1\]$`
	child := &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Name: w.Name + "-child", Namespace: w.Namespace}}
	return r.Create(ctx, child)
}

// A callee that creates a child: the decision stays before the write,
// a Flush.
func (r *R) creates(ctx context.Context, key client.ObjectKey) error {
	w := &v1.Widget{}
	if err := r.Get(ctx, key, w); err != nil {
		return err
	}
	if !w.Status.Ready {
		w.Status.Ready = r.ensureChild(ctx, w) == nil
	}
	return r.Status().Update(ctx, w) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example\.com/op/internal/patchers\)$`
}

// A map's item, whose decision must move into Retry: kept, naming the
// Create in the callee.
func (r *R) createsItem(ctx context.Context, byKey map[string]*v1.Widget, key string) error {
	w, ok := byKey[key]
	if !ok {
		return nil
	}
	w.Status.Ready = r.ensureChild(ctx, w) == nil
	return r.Status().Update(ctx, w) // want `\(not moved to the patcher: w is an element of the map byKey at line \d+, .*; its decision cannot move into Retry: the call r\.ensureChild at line 101 takes a context, and ensureChild calls r\.Create at line 78, a write to the cluster, which a retry would repeat\)$`
}

// The same item, a callee that Lists: into Retry, on a patcher that
// reads it fresh.
func (r *R) listsItem(ctx context.Context, byKey map[string]*v1.Widget, key string) error {
	w, ok := byKey[key]
	if !ok {
		return nil
	}
	w.Status.Size = r.count(ctx)
	return r.Status().Update(ctx, w) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example\.com/op/internal/patchers\)$`
}

// announce records an event: a side effect a retry would repeat.
func (r *R) announce(ctx context.Context, w *v1.Widget) bool { // want announce:`^statusOnly\[1\]$`
	log.FromContext(ctx).Info("announce")
	r.Recorder.Eventf(w, nil, "Normal", "Sized", "Sizing", "")
	return true
}

// Kept: an event in the callee.
func (r *R) eventItem(ctx context.Context, byKey map[string]*v1.Widget, key string) error {
	w, ok := byKey[key]
	if !ok {
		return nil
	}
	w.Status.Ready = r.announce(ctx, w)
	return r.Status().Update(ctx, w) // want `its decision cannot move into Retry: the call r\.announce at line 129 takes a context, and announce calls r\.Recorder\.Eventf at line 119, an event, which a retry would repeat\)$`
}

// mark sets its receiver's map: what outlives the call.
func (r *R) mark(ctx context.Context, name string) bool {
	log.FromContext(ctx).Info("mark")
	r.seen[name] = true
	return true
}

// Kept: the callee sets its receiver's field, by the evidence rule.
func (r *R) markItem(ctx context.Context, byKey map[string]*v1.Widget, key string) error {
	w, ok := byKey[key]
	if !ok {
		return nil
	}
	w.Status.Ready = r.mark(ctx, key)
	return r.Status().Update(ctx, w) // want `its decision cannot move into Retry: the call r\.mark at line 146 takes a context, and mark sets r\.seen\[name\] at line 136, which a retry would repeat\)$`
}

// Kept: a function of another package of the module, whose body this
// package's analysis does not see.
func (r *R) otherItem(ctx context.Context, byKey map[string]*v1.Widget, key string) error {
	w, ok := byKey[key]
	if !ok {
		return nil
	}
	w.Status.Size = ctxutil.Count(ctx, r.Client)
	return r.Status().Update(ctx, w) // want `its decision cannot move into Retry: the call ctxutil\.Count at line 157 takes a context, and Count is of example\.com/op/ctxutil, whose body is not seen here \(a call to the cluster, which a retry would repeat\)\)$`
}

// depth is recursive and only reads.
func (r *R) depth(ctx context.Context, n int) int {
	if n <= 1 {
		log.FromContext(ctx).Info("depth", "n", n)
		return n
	}
	return r.depth(ctx, n-1) + 1
}

// A recursive callee that only reads: into Retry.
func (r *R) recursive(ctx context.Context, key client.ObjectKey) error {
	w := &v1.Widget{}
	if err := r.Get(ctx, key, w); err != nil {
		return err
	}
	if w.Status.Size == 0 {
		w.Status.Size = r.depth(ctx, w.Spec.Size)
	}
	return r.Status().Update(ctx, w) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example\.com/op/internal/patchers\)$`
}

// grow is recursive and creates after its recursive call.
func (r *R) grow(ctx context.Context, name string, n int) int {
	if n == 0 {
		return 0
	}
	made := r.grow(ctx, name, n-1)
	if err := r.Create(ctx, &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Name: name}}); err != nil {
		return made
	}
	return made + 1
}

// Kept: a recursive callee that creates.
func (r *R) recursiveItem(ctx context.Context, byKey map[string]*v1.Widget, key string) error {
	w, ok := byKey[key]
	if !ok {
		return nil
	}
	w.Status.Size = r.grow(ctx, key, w.Spec.Size)
	return r.Status().Update(ctx, w) // want `its decision cannot move into Retry: the call r\.grow at line 200 takes a context, and grow calls r\.Create at line 188, a write to the cluster, which a retry would repeat\)$`
}

// sum calls another package's function given ctx, whose body is not
// seen here.
func (r *R) sum(ctx context.Context) int {
	return ctxutil.Count(ctx, r.Client) + 1
}

// Kept: the callee hands ctx to what is not seen.
func (r *R) sumItem(ctx context.Context, byKey map[string]*v1.Widget, key string) error {
	w, ok := byKey[key]
	if !ok {
		return nil
	}
	w.Status.Size = r.sum(ctx)
	return r.Status().Update(ctx, w) // want `its decision cannot move into Retry: the call r\.sum at line 216 takes a context, and sum calls ctxutil\.Count at line 207, given a context, whose body is not seen here, which a retry would repeat\)$`
}

// The decision's own logger from ctx reads it: into Retry.
func (r *R) logs(ctx context.Context, key client.ObjectKey) error {
	w := &v1.Widget{}
	if err := r.Get(ctx, key, w); err != nil {
		return err
	}
	if w.Status.Size == 0 {
		log.FromContext(ctx).Info("sizing", "size", w.Spec.Size)
		w.Status.Size = w.Spec.Size
	}
	return r.Status().Update(ctx, w) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example\.com/op/internal/patchers\)$`
}
