package patcher

import (
	"context"
	"encoding/json"
	"fmt"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
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
func (p *Patcher[T]) firstWriteAfterBase(ctx context.Context, w *sentWrite[T], fresh T) (T, error) {
	var zero T
	baseRV, freshRV := w.base.GetResourceVersion(), fresh.GetResourceVersion()
	if p.opts.watcher == nil && history.Next(baseRV, freshRV, wire.CompareResourceVersions) {
		return fresh, nil // no version lies between the base and the read
	}
	src, err := p.historySource()
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
	return p.fromDoc(d)
}

// historySource is where this patcher reads the object's history: its
// watcher; without one the client, or else the API reader, when it can
// watch; and lists through the API reader (or the client).
func (p *Patcher[T]) historySource() (history.Source, error) {
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
func (p *Patcher[T]) fromDoc(d history.Doc) (T, error) {
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
		cmp, cerr := wire.CompareResourceVersions(freshRV, baseRV)
		atBase = (cerr == nil && cmp <= 0) || (cerr != nil && freshRV == baseRV)
	}
	if atBase && (!apierrors.IsConflict(err) || p.opts.watcher == nil) {
		return d, true, nil
	}
	if sw.Writer.Manager == "" {
		// No field owner: the manager the server names this client's
		// writes after (ownmanager.go).
		if m := p.ownManager(ctx); m != "" {
			sw.Writer = settle.Writer{Manager: m, Operation: metav1.ManagedFieldsOperationUpdate, Subresource: "status"}
		}
	}
	unlocked := w.patchType == types.ApplyPatchType && p.opts.mode == WriteApplyWithoutLock
	if !atBase {
		fv, verr := versionOf(fresh)
		if verr != nil {
			return settle.Decision{Outcome: settle.Unknown, Why: verr.Error()}, false, nil
		}
		decide := settle.Fresh
		if unlocked {
			decide = settle.Held
		}
		if d = decide(sw, fv); d.Outcome != settle.Unknown {
			return d, false, nil
		}
	}
	if unlocked {
		d.Why += " (an apply without the lock may be stored at any time, so the history cannot tell)"
		return d, false, nil
	}
	first, herr := p.firstWriteAfterBase(ctx, w, fresh)
	if herr != nil {
		return d, false, p.historyUnreadable(ctx, w, fresh, err, herr)
	}
	if first.GetUID() == w.base.GetUID() && answers.Has(first.GetUID(), first.GetResourceVersion()) {
		// The server answered another write of this process with that
		// version: it is not this write, whose answer never came.
		return settle.Decision{Outcome: settle.Conflict, Why: fmt.Sprintf("the first write after the base, resourceVersion %s, "+
			"is the server's answer to another write of this process", first.GetResourceVersion())}, false, nil
	}
	fv, verr := versionOf(first)
	if verr != nil {
		return settle.Decision{Outcome: settle.Unknown, Why: verr.Error()}, false, nil
	}
	d = p.first(ctx, sw, fv)
	if d.NeedsServerBase {
		// The base came through a cache that transforms its objects: the
		// server's own version at the base's resourceVersion, listed
		// through the API reader, is the evidence.
		if server, ok := p.readExact(ctx, w.base.GetResourceVersion()); ok && server.GetUID() == w.base.GetUID() {
			if sv, err := versionOf(server); err == nil {
				sw.Base = sv
				d = p.first(ctx, sw, fv)
			}
		}
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

// first is settle.First, given the CRD's schema when it needs it.
func (p *Patcher[T]) first(ctx context.Context, sw settle.Write, fv settle.Version) settle.Decision {
	d := settle.First(sw, fv, nil)
	if d.NeedsSchema {
		d = settle.First(sw, fv, p.crdSchema(ctx))
	}
	return d
}
