package patcher

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"reflect"
	"strings"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/statuspatch/statuspatch/patcher/internal/wire"
)

// The primitives every concern of the façade uses: reading the object,
// making and replacing one, the errors every write can return, and the
// helpers for names and versions. They sit below every other file.

// read fetches the object through the API reader into a new T.
func (p *Patcher[T]) read(ctx context.Context) (T, error) {
	fresh := p.newObject()
	if err := p.reader().Get(ctx, client.ObjectKeyFromObject(p.obj), fresh); err != nil {
		return fresh, fmt.Errorf("statuspatch: re-read %s: %w", p.id(), withCause(ctx, err))
	}
	p.tracker.record().Observe(fresh.GetResourceVersion())
	return fresh, nil
}

// readServer reads what the server holds now. With an API reader it reads
// through it. Without one it reads the status subresource (GET .../status
// returns the whole object and is never served from a cache), so that a
// client whose reads lag (a cache) cannot serve an old object; uncached is
// true then. Only when the client cannot read that (a fake client, a
// refusal such as a role without get on the status subresource) it reads
// through the client, which may lag.
func (p *Patcher[T]) readServer(ctx context.Context) (fresh T, uncached bool, err error) {
	if p.opts.apiReader == nil {
		fresh, serr := p.readStatus(ctx)
		switch {
		case serr == nil:
			return fresh, true, nil
		case apierrors.IsNotFound(serr):
			return fresh, true, fmt.Errorf("statuspatch: re-read %s: %w", p.id(), withCause(ctx, serr))
		}
	}
	fresh, err = p.read(ctx)
	return fresh, false, err
}

// readStatus reads the object through the status subresource (GET
// .../status: the whole object, never served from a cache) and records
// the resourceVersion it saw.
func (p *Patcher[T]) readStatus(ctx context.Context) (T, error) {
	fresh := p.newObject()
	if err := p.client.SubResource("status").Get(ctx, p.newObject(), fresh); err != nil {
		return fresh, err
	}
	p.tracker.record().Observe(fresh.GetResourceVersion())
	return fresh, nil
}

// reader is the API reader, or the client when none was given.
func (p *Patcher[T]) reader() client.Reader {
	if p.opts.apiReader != nil {
		return p.opts.apiReader
	}
	return p.client
}

// newObject returns a new, empty T carrying the object's name and namespace.
func (p *Patcher[T]) newObject() T {
	o := reflect.New(reflect.TypeOf(p.obj).Elem()).Interface().(T)
	o.SetName(p.obj.GetName())
	o.SetNamespace(p.obj.GetNamespace())
	return o
}

// replaceObject overwrites the caller's object with src, in place, so the
// caller's pointer stays valid.
func (p *Patcher[T]) replaceObject(src T) {
	reflect.ValueOf(p.obj).Elem().Set(reflect.ValueOf(src).Elem())
}

// conflict is a Conflict error naming the object and why.
func (p *Patcher[T]) conflict(why string) error {
	return fmt.Errorf("statuspatch: %s: %w", p.id(), apierrors.NewConflict(p.groupResource(), p.obj.GetName(),
		fmt.Errorf("%s; use Retry or re-fetch", why)))
}

func (p *Patcher[T]) notFound(why string) error {
	return fmt.Errorf("statuspatch: %s: %s: %w", p.id(), why,
		apierrors.NewNotFound(p.groupResource(), p.obj.GetName()))
}

func (p *Patcher[T]) groupResource() schema.GroupResource {
	if gvk, err := p.client.GroupVersionKindFor(p.obj); err == nil {
		return schema.GroupResource{Group: gvk.Group, Resource: gvk.Kind}
	}
	return schema.GroupResource{Resource: p.kind}
}

func readerName(apiReader client.Reader) string {
	if apiReader != nil {
		return "the API reader"
	}
	return "the client (no API reader is set)"
}

// schemaRefused reports whether err is the API server refusing an apply
// that holds a field the object's schema lacks ("failed to create typed
// patch object (...): .status.x: field not declared in schema", or, where
// only the storage version lacks it, "failed to prune fields: ...: failed to
// convert merged object at version ...: field not declared in schema"). The field
// manager refuses it before anything is stored, but as a plain error, which
// the server answers with a 500 (kubernetes/kubernetes#122480): taken for a
// 5xx, the same apply would be sent again and its outcome called unknown.
func schemaRefused(err error) bool {
	var status apierrors.APIStatus
	if !errors.As(err, &status) {
		return false
	}
	s := status.Status()
	if s.Code != http.StatusInternalServerError {
		return false
	}
	// The same refusal where the version applied declares the field and
	// the storage version does not: the field manager fails to convert
	// the merged object to the storage version, before anything is stored.
	return strings.HasPrefix(s.Message, "failed to create typed patch object") ||
		strings.HasPrefix(s.Message, "failed to prune fields") && strings.Contains(s.Message, "field not declared in schema")
}

// sleep waits d or until ctx is done; then its error matches ctx.Err() and
// the cause.
func sleep(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctxError(ctx)
	case <-t.C:
		return nil
	}
}

// jsonName is the name encoding/json gives struct field f
// (wire.JSONName).
func jsonName(f reflect.StructField) string { return wire.JSONName(f) }

// withCause adds ctx's cancellation cause to err when ctx is done and the
// cause is not already in err's chain, so that the error matches both
// context.Canceled (or DeadlineExceeded) and the cause.
func withCause(ctx context.Context, err error) error {
	if err == nil || ctx == nil || ctx.Err() == nil {
		return err
	}
	ctxErr, cause := ctx.Err(), context.Cause(ctx)
	if !is(err, ctxErr) {
		err = fmt.Errorf("%w (%w)", err, ctxErr)
	}
	if cause != nil && !is(err, cause) {
		err = fmt.Errorf("%w: %w", err, cause)
	}
	return err
}

// is is errors.Is for a target the user supplied (a cancellation cause).
// errors.Is compares target with == to every error in err's chain, which
// panics when target's type is comparable but its value is not (a struct
// holding a map in an interface field) and the chain holds the same type.
// Such a target is looked for only through Is methods; a miss costs a cause
// named twice in a message, never a panic.
func is(err, target error) bool {
	if hashable(target) {
		return errors.Is(err, target)
	}
	for _, e := range chain(err) {
		if x, ok := e.(interface{ Is(error) bool }); ok && x.Is(target) {
			return true
		}
	}
	return false
}

// chain lists err and every error it wraps, depth first.
func chain(err error) []error {
	if err == nil {
		return nil
	}
	out := []error{err}
	switch u := err.(type) { //nolint:errorlint // this walks the wrap chain itself, one level at a time
	case interface{ Unwrap() error }:
		out = append(out, chain(u.Unwrap())...)
	case interface{ Unwrap() []error }:
		for _, e := range u.Unwrap() {
			out = append(out, chain(e)...)
		}
	}
	return out
}

// hashable reports whether v can be compared with == and used as a map
// key without a panic: its dynamic value, not only its type, is checked.
func hashable(v any) bool {
	return v == nil || reflect.ValueOf(v).Comparable()
}

// ctxError is the error for a context that is done before a request: it
// matches ctx.Err() and the cause.
func ctxError(ctx context.Context) error {
	if ctx == nil {
		return fmt.Errorf("nil context: %w", ErrInvalidInput)
	}
	if ctx.Err() == nil {
		return nil
	}
	return withCause(ctx, ctx.Err())
}
