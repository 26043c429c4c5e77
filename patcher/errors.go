package patcher

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"strings"
)

// ErrRetryExhausted matches (errors.Is) the error Retry returns when every
// attempt of its budget conflicted. That error also satisfies
// apierrors.IsConflict.
var ErrRetryExhausted = errors.New("retry budget exhausted")

// ErrNonStatusChange matches (errors.Is) the error Flush returns when the
// caller changed, in memory, something a status write would silently drop:
// spec, labels, annotations, finalizers or owner references.
var ErrNonStatusChange = errors.New("unpersisted non-status change")

// ErrPendingChanges matches (errors.Is) the error Retry returns, before it
// runs mutate or sends anything, when the status was already changed in
// memory: a conflict would make Retry re-read the object and drop those
// changes, so they must be made inside mutate or flushed first.
var ErrPendingChanges = errors.New("status changed before Retry")

// ErrNilPatcher is returned by the methods of a nil *Patcher, such as the one
// a failed Fetch returns, instead of a panic.
var ErrNilPatcher = errors.New("statuspatch: nil patcher (did Fetch fail?)")

// ErrInvalidInput matches (errors.Is) the errors of a Patcher that cannot
// work with what it was given: a nil client or object, a status accessor that
// does not return the address of the object's status field, a nil context or
// mutate function, or a zero Patcher not made by a constructor.
var ErrInvalidInput = errors.New("invalid input")

// RetryExhaustedError is returned by Retry when all attempts conflicted. It
// unwraps to ErrRetryExhausted and to the last Conflict error.
type RetryExhaustedError struct {
	// Object identifies the object: "Kind namespace/name".
	Object string
	// Attempts is the number of writes tried.
	Attempts int
	// Reason says which bound ended Retry: the attempts or the time budget.
	Reason string
	// Last is the last attempt's Conflict error.
	Last error
}

func (e *RetryExhaustedError) Error() string {
	return fmt.Sprintf("statuspatch: %s: %v after %d attempts (%s): %v", e.Object, ErrRetryExhausted, e.Attempts, e.Reason, e.Last)
}

// Unwrap returns ErrRetryExhausted and the last Conflict error.
func (e *RetryExhaustedError) Unwrap() []error { return []error{ErrRetryExhausted, e.Last} }

// NonStatusChangeError names the fields the caller changed in memory that a
// status write would drop. It matches ErrNonStatusChange.
type NonStatusChangeError struct {
	// Object identifies the object: "Kind namespace/name".
	Object string
	// Fields are JSON paths such as "spec" or "metadata.finalizers".
	Fields []string
}

func (e *NonStatusChangeError) Error() string {
	return fmt.Sprintf("statuspatch: %s: %v to %s: a status write would drop it, so nothing was sent (Flush keeps the status changes in memory; Retry puts the object back as it was before mutate). "+
		"Persist it before changing status (r.Update or r.Patch on this object, then set status and Flush: the patcher re-bases on your own write), "+
		"or use AddFinalizer/RemoveFinalizer for finalizers. Do not r.Update this object now: the response would replace the pending status with the server's",
		e.Object, ErrNonStatusChange, strings.Join(e.Fields, ", "))
}

// Unwrap returns ErrNonStatusChange.
func (e *NonStatusChangeError) Unwrap() error { return ErrNonStatusChange }

// PendingChangesError names the status fields changed in memory before
// Retry. It matches ErrPendingChanges.
type PendingChangesError struct {
	// Object identifies the object: "Kind namespace/name".
	Object string
	// Fields are JSON paths such as "status.phase".
	Fields []string
}

func (e *PendingChangesError) Error() string {
	return fmt.Sprintf("statuspatch: %s: %v, in %s: on a conflict Retry re-reads the object and those changes would be lost. "+
		"Make them inside mutate (generated helpers such as SetCondition and MarkObserved work there), or Flush them before Retry. "+
		"Nothing was sent; the changes are still in memory",
		e.Object, ErrPendingChanges, strings.Join(e.Fields, ", "))
}

// Unwrap returns ErrPendingChanges.
func (e *PendingChangesError) Unwrap() error { return ErrPendingChanges }

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

// ErrNoStatusSubresource matches (errors.Is) the error Flush and Retry
// return when the object's CRD does not serve the status subresource: the
// server answered the status write with a 404 while the object exists.
// Nothing was stored. The error does not satisfy apierrors.IsNotFound,
// which means the object is gone.
var ErrNoStatusSubresource = errors.New("the CRD has no status subresource")

// NoStatusSubresourceError is the error matching ErrNoStatusSubresource.
type NoStatusSubresourceError struct {
	// Object identifies the object: "Kind namespace/name".
	Object string
	// CRD is the CRD's name, "<plural>.<group>", or "of kind <Kind>" when
	// the client cannot map the kind to its resource.
	CRD string
	// Cause is the 404 the status write got. Unwrap does not return it.
	Cause error
}

func (e *NoStatusSubresourceError) Error() string {
	return fmt.Sprintf("statuspatch: %s: %v: the status write got a 404 (%v) while the object exists, so the CRD %s does not serve .../status; nothing was stored. "+
		"Add the marker +kubebuilder:subresource:status to the type, regenerate the CRD and install it", e.Object, ErrNoStatusSubresource, e.Cause, e.CRD)
}

// Unwrap returns ErrNoStatusSubresource only: the 404 is not the object's.
func (e *NoStatusSubresourceError) Unwrap() error { return ErrNoStatusSubresource }

// ErrStatusTooLarge matches (errors.Is) the error Flush and Retry return
// when the server refused a status write because the object would be too
// large to store (etcd's "request is too large"; its limit is 1.5 MiB by
// default, below the API server's 3 MB request limit). Nothing was stored
// and sending it again would not help: the status must be made smaller.
var ErrStatusTooLarge = errors.New("status too large to store")

// StatusTooLargeError is the error matching ErrStatusTooLarge. It unwraps
// to ErrStatusTooLarge and to the server's answer (a 500).
type StatusTooLargeError struct {
	// Object identifies the object: "Kind namespace/name".
	Object string
	// StatusBytes is the size of the status the write would store, as
	// JSON; WriteBytes the size of the request's body.
	StatusBytes, WriteBytes int
	// Cause is the server's answer.
	Cause error
}

func (e *StatusTooLargeError) Error() string {
	return fmt.Sprintf("statuspatch: %s: %v: the status is %d bytes as JSON (the write's body %d bytes) and the server refused to store it (%v); nothing was stored. "+
		"Keep the status small (summaries and counts, not whole lists)", e.Object, ErrStatusTooLarge, e.StatusBytes, e.WriteBytes, e.Cause)
}

// Unwrap returns ErrStatusTooLarge and the server's answer.
func (e *StatusTooLargeError) Unwrap() []error { return []error{ErrStatusTooLarge, e.Cause} }
