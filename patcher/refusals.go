package patcher

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"strings"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// Two answers to a status write are definite refusals that the usual
// reading of their status code gets wrong: a 404 while the object exists
// (its CRD does not serve the status subresource), which is no deleted
// object; and the 500 of a status etcd refuses to store, which is no lost
// answer.

// tooLarge reports whether err is the server's refusal to store an
// object that is too large, which the API server answers with a 500
// carrying the refusal of the layer below it: etcd's "etcdserver: request
// is too large" (etcd checks a request's size before it proposes it; 1.5
// MiB by default), or, over the API server's etcd client's message limit
// (2 MiB), gRPC's "ResourceExhausted ... larger than max" (never sent to
// etcd). Either way nothing was stored.
func tooLarge(err error) bool {
	var status apierrors.APIStatus
	if !errors.As(err, &status) {
		return false
	}
	s := status.Status()
	if s.Code != http.StatusInternalServerError {
		return false
	}
	return strings.Contains(s.Message, "etcdserver: request is too large") ||
		(strings.Contains(s.Message, "code = ResourceExhausted") && strings.Contains(s.Message, "larger than max"))
}

// refusedAsTooLarge reports whether w, which got err after sends sends,
// is a definite refusal for its size: the answer says so, and it is the
// answer to the only send, or w carries the lock (a stored earlier send
// would have moved the object past the base, and this send would have
// got a 409 before the size was checked).
func (st *settler[T]) refusedAsTooLarge(w *sentWrite[T], err error, sends int) bool {
	return tooLarge(err) && (sends == 1 || st.locked(w))
}

// locked reports whether w carries the base's resourceVersion.
func (st *settler[T]) locked(w *sentWrite[T]) bool {
	return w.base.GetResourceVersion() != "" && st.p.writer.locked()
}

// tooLargeError is the error of w, refused as too large with err.
func (st *settler[T]) tooLargeError(w *sentWrite[T], err error) error {
	p := st.p
	size := len(w.cur)
	if size == 0 {
		status := p.status(p.obj)
		if w.applied != nil {
			status = w.applied
		}
		if doc, merr := json.Marshal(status); merr == nil {
			size = len(doc)
		}
	}
	return &StatusTooLargeError{Object: p.id(), StatusBytes: size, WriteBytes: len(w.body), Cause: err}
}

// noStatusSubresource returns the error of w, a status write that got
// err, a 404, when the object exists: read after the 404 (through the API
// reader when one is set), it still has the base's UID, so it existed
// when the write was answered and the 404 was the status subresource's.
// It returns nil when the object is gone, was replaced, or cannot be
// read: the 404 is then the object's.
func (st *settler[T]) noStatusSubresource(ctx context.Context, w *sentWrite[T], err error) error {
	p := st.p
	uid := w.base.GetUID()
	if uid == "" {
		return nil
	}
	fresh := p.newObject()
	if rerr := p.reader().Get(ctx, client.ObjectKeyFromObject(p.obj), fresh); rerr != nil || fresh.GetUID() != uid {
		return nil
	}
	return &NoStatusSubresourceError{Object: p.id(), CRD: st.crdName(err), Cause: err}
}

// crdName is the name of the object's CRD, "<plural>.<group>", from the
// client's REST mapper, else from the 404's details, else "of kind <Kind>".
func (st *settler[T]) crdName(err error) string {
	p := st.p
	group, plural := "", ""
	if gvk, gerr := p.client.GroupVersionKindFor(p.obj); gerr == nil {
		group = gvk.Group
		if m, merr := p.client.RESTMapper().RESTMapping(gvk.GroupKind(), gvk.Version); merr == nil {
			plural = m.Resource.Resource
		}
	}
	var status apierrors.APIStatus
	if plural == "" && errors.As(err, &status) && status.Status().Details != nil {
		group, plural = status.Status().Details.Group, status.Status().Details.Kind
	}
	if plural == "" {
		return "of kind " + p.kind
	}
	if group == "" {
		return plural
	}
	return plural + "." + group
}
