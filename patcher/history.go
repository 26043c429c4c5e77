package patcher

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/log"

	"github.com/statuspatch/statuspatch/patcher/internal/history"
	"github.com/statuspatch/statuspatch/patcher/internal/settle"
	"github.com/statuspatch/statuspatch/patcher/internal/wire"
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
// resourceVersions when it is not (patcher/internal/history reads; this
// file decodes what it read into T and decides). What none of them
// can read is ErrWriteOutcomeUnknown, never a Conflict. A 409 whose read
// stayed at the base is a Conflict without a configured watcher only when
// the read could not lag: the status subresource's read (no API reader;
// the 409 did not come from the server: patchertest), or three reads
// through the API reader followed by the status subresource's read at the
// base (landed.go, serverRead); three reads through the client are
// ErrWriteOutcomeUnknown. The history cannot be read from the base alone.

// firstWriteAfterBase reads the first version of the object after w's
// base, up to fresh (a read past it, or the base after a 409). The error
// says why the history cannot be read. A deletion is returned as a version
// without a UID.
func (st *settler[T]) firstWriteAfterBase(ctx context.Context, w *sentWrite[T], fresh T) (T, error) {
	p := st.p
	var zero T
	baseRV, freshRV := w.base.GetResourceVersion(), fresh.GetResourceVersion()
	if p.opts.watcher == nil && history.Next(baseRV, freshRV, wire.CompareResourceVersions) {
		return fresh, nil // no version lies between the base and the read
	}
	src, err := st.historySource()
	if err != nil {
		return zero, err
	}
	d, err := history.First(ctx, src, baseRV, w.base.GetUID(), freshRV)
	if err != nil {
		return zero, err
	}
	if d.IsRead {
		return fresh, nil
	}
	return st.fromDoc(d)
}

// historySource is where this patcher reads the object's history: its
// watcher; without one the client, or else the API reader, when it can
// watch; and lists through the API reader (or the client).
func (st *settler[T]) historySource() (history.Source, error) {
	p := st.p
	gvk, err := p.client.GroupVersionKindFor(p.obj)
	if err != nil {
		return history.Source{}, err
	}
	s := history.Source{Watcher: p.opts.watcher, Reader: p.reader(), ReaderName: readerName(p.opts.apiReader),
		GVK: gvk, Key: client.ObjectKeyFromObject(p.obj), ID: p.id(), Compare: wire.CompareResourceVersions}
	if w, ok := p.client.(client.WithWatch); ok && !isNil(w) {
		s.Implicit = w
	} else if w, ok := p.opts.apiReader.(client.WithWatch); ok && !isNil(w) {
		s.Implicit = w
	}
	return s, nil
}

// fromDoc decodes a version of the object read from its history into a
// new T; a deletion has no UID.
func (st *settler[T]) fromDoc(d history.Doc) (T, error) {
	p := st.p
	obj := p.newObject()
	if d.JSON != nil {
		if err := json.Unmarshal(d.JSON, obj); err != nil {
			return obj, fmt.Errorf("decode the watched %s: %w", p.id(), err)
		}
	}
	if d.Gone {
		obj.SetUID("")
	}
	return obj, nil
}

// decide settles the write w, which got err, from fresh, a read after it,
// by settle.Decide (the protocol is there): notYet when the read is at
// the base (not stored yet, or, after a 409, a reader that lags), else a
// decision. The error matches ErrWriteOutcomeUnknown: the history could
// not be read.
func (st *settler[T]) decide(ctx context.Context, w *sentWrite[T], fresh T, err error) (settle.Decision, bool, error) {
	p := st.p
	w.settleToken = st.tokenFor(ctx, w)
	sw, cerr := p.writer.settleWrite(w)
	if cerr != nil {
		return settle.Decision{Outcome: settle.Unknown, Why: cerr.Error()}, false, nil
	}
	fv, verr := versionOf(fresh)
	if verr != nil {
		return settle.Decision{Outcome: settle.Unknown, Why: verr.Error()}, false, nil
	}
	sit := settle.Situation{Conflict: apierrors.IsConflict(err), Watcher: p.opts.watcher != nil,
		Unlocked: !p.writer.locked()}
	d, notYet, derr := settle.Decide(ctx, sw, fv, sit, settleSources[T]{st: st, w: w, fresh: fresh})
	var herr *settle.ErrHistory
	switch {
	case errors.As(derr, &herr):
		return d, false, st.historyUnreadable(ctx, w, fresh, err, herr.Err)
	case derr != nil:
		return d, false, derr
	case !notYet && d.Outcome == settle.Landed:
		st.tokenLanded(fresh, w.token)
		log.FromContext(ctx).V(1).Info("status write was stored and overwritten before it could be settled; not applied again",
			"kind", p.kind, "object", p.id(), "base", w.base.GetResourceVersion(), "now", fresh.GetResourceVersion())
	}
	return d, notYet, nil
}

// settleSources are the server's evidence settle.Decide asks for, read
// for the write w after the read fresh.
type settleSources[T client.Object] struct {
	st    *settler[T]
	w     *sentWrite[T]
	fresh T
}

func (s settleSources[T]) Manager(ctx context.Context) string { return s.st.ownManager(ctx) }

func (s settleSources[T]) First(ctx context.Context, _ string) (settle.Version, error) {
	first, err := s.st.firstWriteAfterBase(ctx, s.w, s.fresh)
	if err != nil {
		return settle.Version{}, err
	}
	return versionOf(first)
}

func (s settleSources[T]) Answered(uid, rv string) bool { return answers.Has(types.UID(uid), rv) }

func (s settleSources[T]) Schema(ctx context.Context) *settle.Schema {
	return s.st.crdSchema(ctx)
}

func (s settleSources[T]) Base(ctx context.Context) (settle.Version, bool) {
	server, ok := s.st.readExact(ctx, s.w.base.GetResourceVersion())
	if !ok {
		return settle.Version{}, false
	}
	v, err := versionOf(server)
	return v, err == nil
}

// historyUnreadable is the error of a write (which got err) whose history
// could not be read (herr).
func (st *settler[T]) historyUnreadable(ctx context.Context, w *sentWrite[T], fresh T, err, herr error) error {
	p := st.p
	if cerr := ctxError(ctx); cerr != nil {
		return &WriteOutcomeUnknownError{Object: p.id(),
			Why: fmt.Sprintf("the context ended before the object's history could be read (the write got: %v)", err), Cause: cerr}
	}
	return &WriteOutcomeUnknownError{Object: p.id(),
		Why: fmt.Sprintf("another write may have come after the base (resourceVersion %s, read %s), "+
			"and the object's history, which tells whether the first write after the base was this one, could not be read: %v%s",
			w.base.GetResourceVersion(), fresh.GetResourceVersion(), herr, st.decidableHow()),
		Cause: err}
}

// decidableHow says, for an error of a patcher without a watcher, how to
// make such an outcome decidable.
func (st *settler[T]) decidableHow() string {
	p := st.p
	if p.opts.watcher != nil {
		return ""
	}
	return " (give the patcher a watcher, which reads the history with one watch: WithWatcher, or a patcher.ForManager client; " +
		"without one the API reader lists the object at past resourceVersions, which needs a reader that serves them)"
}
