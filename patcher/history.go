package patcher

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/fields"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/client-go/rest"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/log"
)

// The case a read cannot settle: a write that got a 409 (client-go's own
// second send, or another writer's plain refusal), and an object that has
// moved past the base without holding this write's status. Either another
// writer wrote first and this write was never stored (the usual Conflict),
// or this write was stored, its response lost, and another writer wrote
// over it before client-go sent it again. The object's history tells them
// apart: every send of this write carries the base's resourceVersion, so it
// can only have been stored as the first write after the base. One watch
// from the base's resourceVersion, for this object's name, and its first
// event decide:
//
//   - the first write after the base holds this write's status, on the same
//     object (UID): this write landed;
//   - any other first write: another writer won, a Conflict;
//   - the history cannot be read (no event: a resourceVersion older than the
//     server keeps, 410; a refused watch; a watch that ends first):
//     ErrWriteOutcomeUnknown.
//
// Without a watcher (WithWatcher, or a ForManager client of a manager that
// exposes its REST config) nothing is read and the case stays a Conflict.
// The same history settles a write whose response was lost to a 5xx, a
// reset or a timeout on an object that moved on without it
// (overtakenAfterLostResponse): there, without a watcher, the outcome is
// ErrWriteOutcomeUnknown.

// historyTimeout bounds the watch that reads the first write after the
// base. The fresh read already saw that write, so a server that keeps the
// history answers at once; the bound only ends a watch that hangs.
var historyTimeout = 10 * time.Second

// history is what the object's history says about a write.
type history int

const (
	historyNotRead history = iota // no watcher: not looked at
	historyOurs                   // the first write after the base is this one
	historyTheirs                 // the first write after the base is another writer's
	historyUnknown                // the history could not be read
)

// firstWriteAfterBase reads whose the first write to the object after w's
// base is, with one watch from the base's resourceVersion. The error says
// why, for historyUnknown.
func (p *Patcher[T]) firstWriteAfterBase(ctx context.Context, w *sentWrite[T]) (history, error) {
	wc := p.opts.watcher
	if wc == nil {
		return historyNotRead, nil
	}
	baseRV := w.base.GetResourceVersion()
	if baseRV == "" {
		return historyUnknown, errors.New("the base has no resourceVersion to watch from")
	}
	gvk, err := p.client.GroupVersionKindFor(p.obj)
	if err != nil {
		return historyUnknown, err
	}
	list := &unstructured.UnstructuredList{}
	list.SetGroupVersionKind(gvk.GroupVersion().WithKind(gvk.Kind + "List"))
	hctx, cancel := context.WithTimeout(ctx, historyTimeout)
	defer cancel()
	secs := int64(historyTimeout / time.Second)
	wi, err := wc.Watch(hctx, list, &client.ListOptions{
		Namespace:     p.obj.GetNamespace(),
		FieldSelector: fields.OneTermEqualSelector("metadata.name", p.obj.GetName()),
		Raw:           &metav1.ListOptions{ResourceVersion: baseRV, TimeoutSeconds: &secs},
	})
	if err != nil {
		return historyUnknown, fmt.Errorf("watch from resourceVersion %s: %w", baseRV, withCause(ctx, err))
	}
	defer wi.Stop()
	for {
		var ev watch.Event
		var ok bool
		select {
		case <-hctx.Done():
			if err := ctxError(ctx); err != nil {
				return historyUnknown, err
			}
			return historyUnknown, fmt.Errorf("no event within %s of a watch from resourceVersion %s", historyTimeout, baseRV)
		case ev, ok = <-wi.ResultChan():
		}
		if !ok {
			return historyUnknown, fmt.Errorf("the watch from resourceVersion %s ended before its first event", baseRV)
		}
		switch ev.Type {
		case watch.Error:
			return historyUnknown, fmt.Errorf("watch from resourceVersion %s: %w", baseRV, apierrors.FromObject(ev.Object))
		case watch.Bookmark:
			continue
		}
		obj, err := p.fromWatch(ev.Object)
		if err != nil {
			return historyUnknown, err
		}
		rv := obj.GetResourceVersion()
		if cmp, cerr := compareResourceVersions(rv, baseRV); (cerr == nil && cmp <= 0) || rv == baseRV {
			continue // not after the base: a watcher that does not start where asked
		}
		if ev.Type == watch.Modified && obj.GetUID() == w.base.GetUID() && p.holdsWrite(w, obj) {
			return historyOurs, nil
		}
		return historyTheirs, nil
	}
}

// fromWatch decodes a watch event's object into a new T.
func (p *Patcher[T]) fromWatch(o runtime.Object) (T, error) {
	obj := p.newObject()
	u, ok := o.(*unstructured.Unstructured)
	if !ok {
		return obj, fmt.Errorf("the watch returned a %T, not an object", o)
	}
	doc, err := u.MarshalJSON()
	if err == nil {
		err = json.Unmarshal(doc, obj)
	}
	if err != nil {
		return obj, fmt.Errorf("decode the watched %s: %w", p.id(), err)
	}
	return obj, nil
}

// overtakenAfterConflict decides a write that got a Conflict (err) and
// whose fresh read moved past the base without holding it: landed (the
// first write after the base was this one), a Conflict (false, nil), or an
// error matching ErrWriteOutcomeUnknown when the history cannot be read.
// An object deleted and made again (another UID) is a Conflict: the object
// the write was for is gone, and the new one never held it.
func (p *Patcher[T]) overtakenAfterConflict(ctx context.Context, w *sentWrite[T], fresh T, err error) (bool, error) {
	if fresh.GetUID() != w.base.GetUID() {
		return false, nil
	}
	h, herr := p.readHistory(ctx, w, fresh, err, "the write got a Conflict")
	return h == historyOurs, herr
}

// overtakenAfterLostResponse decides a write whose response was lost (a
// 5xx, a reset, a timeout) and whose fresh read moved past the base
// without holding it: stored and overwritten since, or never stored. A
// write that carries the lock can be stored only on the base, so the first
// write after the base tells: this one (landed), or another writer's (it
// was not stored and never will be: a Conflict, which Retry re-runs on
// fresh state). An object deleted and made again is a Conflict too.
// Without a watcher, for a write without the lock, or when the history
// cannot be read, the outcome is unknown (ErrWriteOutcomeUnknown).
func (p *Patcher[T]) overtakenAfterLostResponse(ctx context.Context, w *sentWrite[T], fresh T, err error) (flushResult, error) {
	unknown := func(why string) (flushResult, error) {
		return resultError, &WriteOutcomeUnknownError{Object: p.id(),
			Why: fmt.Sprintf("another write came after the base (resourceVersion %s, now %s) and the object does not hold this write's status: "+
				"it was not stored, or stored and overwritten since%s", w.base.GetResourceVersion(), fresh.GetResourceVersion(), why),
			Cause: err}
	}
	if w.patchType == types.ApplyPatchType && p.opts.mode == modeApplyUnlocked {
		return unknown(" (an apply without the lock may be stored at any time, so the history cannot tell)")
	}
	if fresh.GetUID() != w.base.GetUID() {
		return resultConflict, p.conflict(fmt.Sprintf("the object was deleted and made again after the write's response was lost (%v)", err))
	}
	h, herr := p.readHistory(ctx, w, fresh, err, "the write's response was lost")
	switch {
	case herr != nil:
		return resultError, herr
	case h == historyOurs:
		p.landedAs(fresh)
		return resultApplied, nil
	case h == historyTheirs:
		return resultConflict, p.conflict(fmt.Sprintf("the write's response was lost (%v) and the first write after resourceVersion %s was another writer's, "+
			"so this one, which carries that resourceVersion, was not stored and cannot be", err, w.base.GetResourceVersion()))
	}
	return unknown(" (no watcher to read the object's history: WithWatcher, or a patcher.ForManager client)")
}

// readHistory reads whose the first write after w's base was, for a write
// that got err and what happened to it (what: "the write got a
// Conflict"): ours (logged), theirs, or not read (no watcher); when the
// history cannot be read, an error matching ErrWriteOutcomeUnknown.
func (p *Patcher[T]) readHistory(ctx context.Context, w *sentWrite[T], fresh T, err error, what string) (history, error) {
	h, herr := p.firstWriteAfterBase(ctx, w)
	switch h {
	case historyOurs:
		log.FromContext(ctx).V(1).Info("status write was stored and overwritten before it could be settled; not applied again",
			"kind", p.kind, "object", p.id(), "base", w.base.GetResourceVersion(), "now", fresh.GetResourceVersion(), "write", what)
	case historyUnknown:
		if cerr := ctxError(ctx); cerr != nil {
			return h, &WriteOutcomeUnknownError{Object: p.id(),
				Why: fmt.Sprintf("the context ended before the object's history could be read (the write got: %v)", err), Cause: cerr}
		}
		return h, &WriteOutcomeUnknownError{Object: p.id(),
			Why: fmt.Sprintf("%s and another write came after the base (resourceVersion %s, now %s), "+
				"and the object's history, which tells whether the first write after the base was this one, could not be read: %v",
				what, w.base.GetResourceVersion(), fresh.GetResourceVersion(), herr),
			Cause: err}
	}
	return h, nil
}

// restManager is the part of a controller-runtime manager (or cluster)
// that ForManager uses to make a watching client.
type restManager interface {
	GetConfig() *rest.Config
	GetHTTPClient() *http.Client
	GetScheme() *runtime.Scheme
	GetRESTMapper() meta.RESTMapper
}

// watcherFor returns a client that watches through mgr's REST config,
// HTTP client, scheme and mapper, or nil when mgr does not expose them or
// the client cannot be made.
func watcherFor(mgr Manager) client.WithWatch {
	m, ok := mgr.(restManager)
	if !ok {
		return nil
	}
	cfg, hc, scheme, mapper := m.GetConfig(), m.GetHTTPClient(), m.GetScheme(), m.GetRESTMapper()
	if cfg == nil || hc == nil || scheme == nil || isNil(mapper) {
		return nil
	}
	w, err := client.NewWithWatch(cfg, client.Options{HTTPClient: hc, Scheme: scheme, Mapper: mapper})
	if err != nil {
		return nil
	}
	return w
}
