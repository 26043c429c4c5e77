// Package migrateheldfield: a holder of the object kept in a field of
// another value (jobset's setCondition makes &eventParams{object: js},
// and enqueueEvent appends it to updateStatusOpts.events, whose events
// are handed to an EventRecorder after the write). The holder is followed
// into the callee's parameter, into the unexported field it is kept in,
// and through every use of that field: when they only read the held
// object, the write moves; a use that writes through it, hands the field
// on, or a callee that keeps the holder elsewhere keeps the write.
package migrateheldfield

import (
	"context"

	v1 "example.com/op/api/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/client-go/tools/events"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

type eventParams struct {
	object runtime.Object
	reason string
}

type statusOpts struct {
	shouldUpdate bool
	events       []*eventParams
}

func enqueueEvent(opts *statusOpts, e *eventParams) {
	opts.events = append(opts.events, e)
}

func setCondition(w *v1.Widget, opts *statusOpts) {
	w.Status.Ready = true
	opts.shouldUpdate = true
	event := &eventParams{object: w, reason: "Ready"}
	enqueueEvent(opts, event)
}

// JobSetLike is jobset's shape: the events are emitted, read, after the
// write: it moves.
type JobSetLike struct {
	client.Client
	Record events.EventRecorder
}

func (r *JobSetLike) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	var w v1.Widget
	if err := r.Get(ctx, req.NamespacedName, &w); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	opts := statusOpts{}
	setCondition(&w, &opts)
	return ctrl.Result{}, r.updateStatus(ctx, &w, &opts)
}

func (r *JobSetLike) updateStatus(ctx context.Context, w *v1.Widget, opts *statusOpts) error {
	if !opts.shouldUpdate {
		return nil
	}
	if err := r.Status().Update(ctx, w); err != nil { // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example.com/op/internal/patchers\)$`
		return err
	}
	for _, event := range opts.events {
		r.Record.Eventf(event.object, nil, "Normal", event.reason, "Reconciling", "")
	}
	return nil
}

type note struct {
	object client.Object
	reason string
}

type notes struct {
	client.Client
	Record  events.EventRecorder
	pending []*note
}

func (n *notes) add(x *note) { // want add:`^param0:object\(GetName\)$`
	if x == nil {
		return
	}
	n.pending = append(n.pending, x)
}

// Indexed reads the held object by index, compares it and calls its
// getters through its interface: it moves.
func (n *notes) Indexed(ctx context.Context, w *v1.Widget) error { // want Indexed:"why"
	stored := w.DeepCopy()
	w.Status.Ready = true
	n.add(&note{object: w, reason: "Ready"})
	err := n.Status().Patch(ctx, w, client.MergeFrom(stored)) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example.com/op/internal/patchers\)$`
	for i := range len(n.pending) {
		if n.pending[i].object != nil && n.pending[i].object.GetName() != "" {
			n.Record.Eventf(n.pending[i].object, nil, "Normal", n.pending[i].reason, "Reconciling", "")
		}
	}
	n.pending = nil
	return err
}

// updater writes through what it holds: the Update after the write
// decodes the server's answer into the object.
type updater struct {
	client.Client
	pending []*note
}

func (u *updater) add(x *note) { u.pending = append(u.pending, x) } // want add:`^param0:object\?$`

func (u *updater) flush(ctx context.Context) {
	for _, x := range u.pending {
		_ = u.Update(ctx, x.object)
	}
}

func (u *updater) Reconcile(ctx context.Context, w *v1.Widget) error { // want Reconcile:"why"
	stored := w.DeepCopy()
	w.Status.Ready = true
	u.add(&note{object: w, reason: "Ready"})
	err := u.Status().Patch(ctx, w, client.MergeFrom(stored)) // want `\(not moved to the patcher: the note made at line \d+ holds w, and it is passed to updater.add at line \d+, which keeps it in updater.pending, where x.object is passed to a client's Update at line \d+\)`
	u.flush(ctx)
	return err
}

// toucher hands the held object to a function of the package that
// changes its labels.
type toucher struct {
	client.Client
	pending []*note
}

func label(o client.Object) {
	if w, ok := o.(*v1.Widget); ok {
		w.Spec.Size = 3
	}
}

func (t *toucher) Reconcile(ctx context.Context, w *v1.Widget) error { // want Reconcile:"why"
	stored := w.DeepCopy()
	w.Status.Ready = true
	t.pending = append(t.pending, &note{object: w})
	err := t.Status().Patch(ctx, w, client.MergeFrom(stored)) // want `\(not moved to the patcher: the note made at line \d+ holds w, and it is kept in toucher.pending at line \d+, where x.object is passed to label at line \d+, where o is passed on or aliased at line \d+: it may change more than its status\)`
	for _, x := range t.pending {
		label(x.object)
	}
	return err
}

// shared hands the field itself on.
type shared struct {
	client.Client
	pending []*note
}

func (s *shared) add(x *note) { s.pending = append(s.pending, x) } // want add:`^param0:object\?$`

func (s *shared) Pending() []*note { return s.pending }

func (s *shared) Reconcile(ctx context.Context, w *v1.Widget) error { // want Reconcile:"why"
	stored := w.DeepCopy()
	w.Status.Ready = true
	s.add(&note{object: w})
	return s.Status().Patch(ctx, w, client.MergeFrom(stored)) // want `\(not moved to the patcher: the note made at line \d+ holds w, and it is passed to shared.add at line \d+, which keeps it in shared.pending, where s.pending is handed on at line \d+\)`
}

// labeller keeps the holder where its labels are changed, by a function
// of the package.
type labeller struct {
	client.Client
	pending []*note
}

func (l *labeller) add(x *note) { l.pending = append(l.pending, x) } // want add:`^param0:object\?$`

func (l *labeller) flush() {
	for _, x := range l.pending {
		label(x.object)
	}
}

func (l *labeller) Reconcile(ctx context.Context, w *v1.Widget) error { // want Reconcile:"why"
	stored := w.DeepCopy()
	w.Status.Ready = true
	l.add(&note{object: w})
	err := l.Status().Patch(ctx, w, client.MergeFrom(stored)) // want `\(not moved to the patcher: the note made at line \d+ holds w, and it is passed to labeller.add at line \d+, which keeps it in labeller.pending, where x.object is passed to label at line \d+, where o is passed on or aliased at line \d+: it may change more than its status\)`
	l.flush()
	return err
}

// leaker's callee keeps the holder in a package variable too.
var last *note

type leaker struct {
	client.Client
	pending []*note
}

func (k *leaker) add(x *note) { // want add:`^param0:object\?$`
	k.pending = append(k.pending, x)
	last = x
}

func (k *leaker) Reconcile(ctx context.Context, w *v1.Widget) error { // want Reconcile:"why"
	stored := w.DeepCopy()
	w.Status.Ready = true
	k.add(&note{object: w})
	return k.Status().Patch(ctx, w, client.MergeFrom(stored)) // want `\(not moved to the patcher: the note made at line \d+ holds w, and it is passed to leaker.add at line \d+, where x is handed on at line \d+\)`
}

// Exported is kept in an exported field, which other packages may reach.
type Exported struct {
	client.Client
	Pending []*note
}

func (e *Exported) add(x *note) { e.Pending = append(e.Pending, x) } // want add:`^param0:object\?$`

func (e *Exported) Reconcile(ctx context.Context, w *v1.Widget) error { // want Reconcile:"why"
	stored := w.DeepCopy()
	w.Status.Ready = true
	e.add(&note{object: w})
	return e.Status().Patch(ctx, w, client.MergeFrom(stored)) // want `\(not moved to the patcher: the note made at line \d+ holds w, and it is passed to Exported.add at line \d+, which keeps it in Exported.Pending, where Exported.Pending is exported: other packages may reach what it holds\)`
}

// relay hands the holder on to enqueueEvent (jobset's
// failurePolicyRecreateAll): followed there.
func relay(opts *statusOpts, e *eventParams) {
	opts.shouldUpdate = true
	enqueueEvent(opts, e)
}

// Relayed makes the holder and relays it; the events are read after the
// write: it moves.
type Relayed struct {
	client.Client
	Record events.EventRecorder
}

func (r *Relayed) Reconcile(ctx context.Context, w *v1.Widget) error { // want Reconcile:"why"
	opts := statusOpts{}
	stored := w.DeepCopy()
	w.Status.Ready = true
	relay(&opts, &eventParams{object: w, reason: "Ready"})
	err := r.Status().Patch(ctx, w, client.MergeFrom(stored)) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example.com/op/internal/patchers\)$`
	for _, event := range opts.events {
		r.Record.Eventf(event.object, nil, "Normal", event.reason, "Reconciling", "")
	}
	return err
}

var lastEvent *eventParams

func keepLast(e *eventParams) { lastEvent = e }

// relayKept hands the holder to a function that keeps it in a package
// variable too.
func relayKept(opts *statusOpts, e *eventParams) {
	keepLast(e)
	enqueueEvent(opts, e)
}

// RelayKept relays the holder where it is also kept elsewhere: kept,
// naming the line.
type RelayKept struct{ client.Client }

func (r *RelayKept) Reconcile(ctx context.Context, w *v1.Widget) error { // want Reconcile:"why"
	opts := statusOpts{}
	stored := w.DeepCopy()
	w.Status.Ready = true
	relayKept(&opts, &eventParams{object: w, reason: "Ready"})
	return r.Status().Patch(ctx, w, client.MergeFrom(stored)) // want `\(not moved to the patcher: the eventParams made at line \d+ holds w, and it is passed to relayKept at line \d+, where e is passed to keepLast at line \d+, where e is handed on at line \d+\)`
}
