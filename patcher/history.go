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

	"github.com/statuspatch/statuspatch/patcher/internal/settle"
)

// The object's history settles what a read cannot (the protocol is in the
// package documentation of patcher/internal/settle): every send of a
// locked write carries the base's resourceVersion, so it can only have been
// stored as the first write after the base. One watch from the base's
// resourceVersion, for this object's name, and its first event after the
// base are read; settle.First decides from it. The history cannot be read
// (no event: a resourceVersion older than the server keeps, 410; a refused
// watch; a watch that ends first): ErrWriteOutcomeUnknown.
//
// The history is read with the watcher (WithWatcher, or a ForManager
// client of a manager that exposes its REST config). Without one: when the
// read is the very next resourceVersion after the base, it is the first
// version after the base; else the client (or the API reader) watches when
// it is a client.WithWatch, and the API reader lists the object at exact
// resourceVersions when it is not (pastversions.go). What none of them
// can read is ErrWriteOutcomeUnknown, never a Conflict. A 409 whose read
// stayed at the base is a Conflict without a configured watcher only when
// the read could not lag: the status subresource's read (no API reader;
// the 409 did not come from the server: patchertest), or three reads
// through the API reader followed by the status subresource's read at the
// base (landed.go, serverRead); three reads through the client are
// ErrWriteOutcomeUnknown. The history cannot be read from the base alone.

// historyTimeout bounds the watch that reads the first write after the
// base. The fresh read already saw that write, so a server that keeps the
// history answers at once; the bound only ends a watch that hangs.
var historyTimeout = 10 * time.Second

// implicitWatchTimeout bounds the watch of a client that can watch when
// no watcher was given: a fake client's watch starts now and never
// answers, and the lists then tell at once.
var implicitWatchTimeout = 2 * time.Second

// firstWriteAfterBase reads the first version of the object after w's
// base, up to fresh (a read past it, or the base after a 409). The error
// says why the history cannot be read. A deletion is returned as a version
// without a UID.
func (p *Patcher[T]) firstWriteAfterBase(ctx context.Context, w *sentWrite[T], fresh T) (T, error) {
	if p.opts.watcher != nil {
		return p.watchFirst(ctx, p.opts.watcher, historyTimeout, w, fresh)
	}
	if next, err := compareResourceVersions(fresh.GetResourceVersion(), nextResourceVersion(w.base.GetResourceVersion())); err == nil && next == 0 {
		return fresh, nil // no version lies between the base and the read
	}
	wc := p.implicitWatcher()
	if wc == nil {
		return p.firstByLists(ctx, w, fresh)
	}
	first, werr := p.watchFirst(ctx, wc, implicitWatchTimeout, w, fresh)
	if werr == nil || ctx.Err() != nil {
		return first, werr
	}
	first, lerr := p.firstByLists(ctx, w, fresh)
	if lerr != nil {
		return first, fmt.Errorf("%w; and the client's own watch: %w", lerr, werr)
	}
	return first, nil
}

// watchFirst reads the first version after w's base with one watch
// through wc, bounded by timeout.
func (p *Patcher[T]) watchFirst(ctx context.Context, wc client.WithWatch, timeout time.Duration, w *sentWrite[T], fresh T) (first T, err error) {
	baseRV := w.base.GetResourceVersion()
	if baseRV == "" {
		return first, errors.New("the base has no resourceVersion to watch from")
	}
	gvk, err := p.client.GroupVersionKindFor(p.obj)
	if err != nil {
		return first, err
	}
	list := &unstructured.UnstructuredList{}
	list.SetGroupVersionKind(gvk.GroupVersion().WithKind(gvk.Kind + "List"))
	hctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	secs := int64(timeout / time.Second)
	wi, err := wc.Watch(hctx, list, &client.ListOptions{
		Namespace:     p.obj.GetNamespace(),
		FieldSelector: fields.OneTermEqualSelector("metadata.name", p.obj.GetName()),
		Raw:           &metav1.ListOptions{ResourceVersion: baseRV, TimeoutSeconds: &secs},
	})
	if err != nil {
		return first, fmt.Errorf("watch from resourceVersion %s: %w", baseRV, withCause(ctx, err))
	}
	defer wi.Stop()
	for {
		var ev watch.Event
		var open bool
		select {
		case <-hctx.Done():
			if err := ctxError(ctx); err != nil {
				return first, err
			}
			return first, fmt.Errorf("no event within %s of a watch from resourceVersion %s", timeout, baseRV)
		case ev, open = <-wi.ResultChan():
		}
		if !open {
			return first, fmt.Errorf("the watch from resourceVersion %s ended before its first event", baseRV)
		}
		switch ev.Type {
		case watch.Error:
			return first, fmt.Errorf("watch from resourceVersion %s: %w", baseRV, apierrors.FromObject(ev.Object))
		case watch.Bookmark:
			continue
		}
		obj, err := p.fromWatch(ev.Object)
		if err != nil {
			return first, err
		}
		rv := obj.GetResourceVersion()
		if obj.GetName() != p.obj.GetName() {
			continue // another object: a watcher that ignores the field selector
		}
		if cmp, cerr := compareResourceVersions(rv, baseRV); (cerr == nil && cmp <= 0) || rv == baseRV {
			continue // not after the base: a watcher that does not start where asked
		}
		if cmp, cerr := compareResourceVersions(rv, fresh.GetResourceVersion()); cerr == nil && cmp > 0 && fresh.GetResourceVersion() != baseRV {
			// Later than the read past the base: the watch did not replay
			// the history (a fake client's watch starts now).
			return first, fmt.Errorf("the watch from resourceVersion %s began at %s, after the read's %s: it does not replay the object's history",
				baseRV, rv, fresh.GetResourceVersion())
		}
		if ev.Type == watch.Deleted {
			obj.SetUID("")
		}
		return obj, nil
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

// decide settles the write w, which got err, from fresh, a read after it:
// notYet when the read is at the base (not stored yet, or, after a 409, a
// reader that lags), else a decision: settle.Fresh from the read, then,
// when it cannot tell, settle.First from the history. The error matches
// ErrWriteOutcomeUnknown: the history could not be read.
func (p *Patcher[T]) decide(ctx context.Context, w *sentWrite[T], fresh T, err error) (d settle.Decision, notYet bool, herr error) {
	sw, cerr := p.settleWrite(w)
	if cerr != nil {
		return settle.Decision{Outcome: settle.Unknown, Why: cerr.Error()}, false, nil
	}
	atBase := false
	if fresh.GetUID() == w.base.GetUID() {
		baseRV, freshRV := w.base.GetResourceVersion(), fresh.GetResourceVersion()
		cmp, cerr := compareResourceVersions(freshRV, baseRV)
		atBase = (cerr == nil && cmp <= 0) || (cerr != nil && freshRV == baseRV)
	}
	if !atBase {
		fv, verr := versionOf(fresh)
		if verr != nil {
			return settle.Decision{Outcome: settle.Unknown, Why: verr.Error()}, false, nil
		}
		if d = settle.Fresh(sw, fv); d.Outcome != settle.Unknown {
			return d, false, nil
		}
	} else if !apierrors.IsConflict(err) || p.opts.watcher == nil {
		return d, true, nil
	}
	if w.patchType == types.ApplyPatchType && p.opts.mode == WriteApplyWithoutLock {
		d.Why += " (an apply without the lock may be stored at any time, so the history cannot tell)"
		return d, false, nil
	}
	first, herr := p.firstWriteAfterBase(ctx, w, fresh)
	if herr != nil {
		return d, false, p.historyUnreadable(ctx, w, fresh, err, herr)
	}
	fv, verr := versionOf(first)
	if verr != nil {
		return settle.Decision{Outcome: settle.Unknown, Why: verr.Error()}, false, nil
	}
	if d = settle.First(sw, fv, nil); d.NeedsSchema {
		d = settle.First(sw, fv, p.crdSchema(ctx))
	}
	if d.Outcome == settle.Landed {
		log.FromContext(ctx).V(1).Info("status write was stored and overwritten before it could be settled; not applied again",
			"kind", p.kind, "object", p.id(), "base", w.base.GetResourceVersion(), "now", fresh.GetResourceVersion())
	}
	return d, false, nil
}

// historyUnreadable is the error of a write (which got err) whose history
// could not be read (herr).
func (p *Patcher[T]) historyUnreadable(ctx context.Context, w *sentWrite[T], fresh T, err, herr error) error {
	if cerr := ctxError(ctx); cerr != nil {
		return &WriteOutcomeUnknownError{Object: p.id(),
			Why: fmt.Sprintf("the context ended before the object's history could be read (the write got: %v)", err), Cause: cerr}
	}
	return &WriteOutcomeUnknownError{Object: p.id(),
		Why: fmt.Sprintf("another write may have come after the base (resourceVersion %s, read %s), "+
			"and the object's history, which tells whether the first write after the base was this one, could not be read: %v%s",
			w.base.GetResourceVersion(), fresh.GetResourceVersion(), herr, p.decidableHow()),
		Cause: err}
}

// decidableHow says, for an error of a patcher without a watcher, how to
// make such an outcome decidable.
func (p *Patcher[T]) decidableHow() string {
	if p.opts.watcher != nil {
		return ""
	}
	return " (give the patcher a watcher, which reads the history with one watch: WithWatcher, or a patcher.ForManager client; " +
		"without one the API reader lists the object at past resourceVersions, which needs a reader that serves them)"
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
