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

// refresh Gets into cur, which is p: into the object it is given, not
// a local of its own.
func (r *R) refresh(ctx context.Context, p *v1.Widget) bool {
	cur := p
	_ = r.Get(ctx, client.ObjectKeyFromObject(p), cur)
	return cur.Status.Size > 0
}

// A callee that Gets into what it is given, through a local, given
// what was read before: kept, as its replay (the Get rule adds nothing
// here).
func (r *R) refreshes(ctx context.Context, key client.ObjectKey, peer *v1.Widget) error {
	w := &v1.Widget{}
	if err := r.Get(ctx, key, w); err != nil {
		return err
	}
	w.Status.Ready = r.refresh(ctx, peer)
	return r.Status().Update(ctx, w) // want `; status replayed from before the re-read \(computed from peer, read before the re-read\) \(not moved to the patcher: .*\)$`
}

// Kept: the same callee on a map's item, naming its Get.
func (r *R) refreshItem(ctx context.Context, byKey map[string]*v1.Widget, key string, peer *v1.Widget) error {
	w, ok := byKey[key]
	if !ok {
		return nil
	}
	w.Status.Ready = r.refresh(ctx, peer)
	return r.Status().Update(ctx, w) // want `its decision cannot move into Retry: the call r\.refresh at line 259 takes a context, and refresh calls r\.Get at line 237, which reads the cluster into cur, not a local of its own, which a retry would repeat\)$`
}

// cachingR keeps the objects it read.
type cachingR struct {
	R
	cache map[string]*v1.Widget
}

// cached Gets into its cache's object, through a local.
func (r *cachingR) cached(ctx context.Context, key string) int {
	cur := r.cache[key]
	if cur == nil {
		return 0
	}
	_ = r.Get(ctx, client.ObjectKeyFromObject(cur), cur)
	return cur.Status.Size
}

// Kept: the callee Gets into what outlives the call.
func (r *cachingR) cachedItem(ctx context.Context, byKey map[string]*v1.Widget, key string) error {
	w, ok := byKey[key]
	if !ok {
		return nil
	}
	w.Status.Size = r.cached(ctx, key)
	return r.Status().Update(ctx, w) // want `its decision cannot move into Retry: the call r\.cached at line 285 takes a context, and cached calls r\.Get at line 275, which reads the cluster into cur, not a local of its own, which a retry would repeat\)$`
}

// latest Gets into a local it made, but takes p when the Get fails:
// assigned from what it is given.
func (r *R) latest(ctx context.Context, p *v1.Widget) int {
	cur := &v1.Widget{}
	if err := r.Get(ctx, client.ObjectKeyFromObject(p), cur); err != nil {
		cur = p
	}
	return cur.Status.Size
}

// Kept: the local is assigned from p too.
func (r *R) latestItem(ctx context.Context, byKey map[string]*v1.Widget, key string, peer *v1.Widget) error {
	w, ok := byKey[key]
	if !ok {
		return nil
	}
	w.Status.Size = r.latest(ctx, peer)
	return r.Status().Update(ctx, w) // want `its decision cannot move into Retry: the call r\.latest at line 305 takes a context, and latest calls r\.Get at line 293, which reads the cluster into cur, not a local of its own, which a retry would repeat\)$`
}

// own Gets into locals of its own: var x T and new(T).
func (r *R) own(ctx context.Context, w *v1.Widget) int { // want own:`^statusOnly\[1\]$`
	var cur v1.Widget
	if err := r.Get(ctx, client.ObjectKeyFromObject(w), &cur); err != nil {
		return 0
	}
	next := new(v1.Widget)
	if err := r.Get(ctx, client.ObjectKeyFromObject(w), next); err != nil {
		return 0
	}
	return cur.Status.Size + next.Status.Size
}

// Into Retry: the callee only reads, into its own locals.
func (r *R) ownItem(ctx context.Context, byKey map[string]*v1.Widget, key string) error {
	w, ok := byKey[key]
	if !ok {
		return nil
	}
	w.Status.Size = r.own(ctx, w)
	return r.Status().Update(ctx, w) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example\.com/op/internal/patchers\)$`
}
