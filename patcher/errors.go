package patcher

import (
	"errors"
	"fmt"
	"strings"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
)

// The public errors: the sentinels to match with errors.Is and the error
// types that carry the details (errors.As). The helpers that build errors
// are in object.go.

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

// ErrApplyCannotRemove matches (errors.Is) the error Flush returns in apply
// mode, sending nothing, when the caller removed (set to nil or to an
// omitted zero value) a status field, a keyed list item or a set value
// that another field manager owns: an
// apply removes only the fields its own manager alone owns, so the server
// would keep it and the removal would be lost. A removed field no manager
// owns (a schema default) is left out of the apply; when the server keeps
// it, that is a divergence ("defaulted"), as in merge mode.
var ErrApplyCannotRemove = errors.New("apply cannot remove a field another field manager owns")

// ApplyCannotRemoveError names the removed fields and their owners. It
// matches ErrApplyCannotRemove.
type ApplyCannotRemoveError struct {
	// Object identifies the object: "Kind namespace/name".
	Object string
	// Fields are JSON paths, each with its owners: "status.phase (owned
	// by other-controller (Apply, status))".
	Fields []string
}

func (e *ApplyCannotRemoveError) Error() string {
	return fmt.Sprintf("statuspatch: %s: %v: %s; nothing was sent. Leave the field to its owner, "+
		"or remove it with a merge-mode patcher (WithWriteMode(WriteMergePatch)), which writes as an Update", e.Object, ErrApplyCannotRemove, strings.Join(e.Fields, ", "))
}

// Unwrap returns ErrApplyCannotRemove.
func (e *ApplyCannotRemoveError) Unwrap() error { return ErrApplyCannotRemove }

// ErrInvalidCondition matches (errors.Is) the error of a status write with
// a condition that breaks a rule the API server enforces on
// metav1.Condition (type, status, reason, message length,
// lastTransitionTime, observedGeneration) in the schema controller-gen
// emits: Flush sends the write, and when the server refuses it (a 422,
// nothing stored) the error names each such condition beside the
// server's answer. A server whose CRD lacks that schema, or a fake
// client, stores it, as Status().Update would. Apply mode's ApplyStatus
// refuses such conditions before sending (its keyed lists).
// Only conditions the caller changed are judged (docs/patcher.md,
// "Invalid conditions").
var ErrInvalidCondition = errors.New("invalid condition")

// InvalidConditionError lists the condition rules a status write breaks.
// It matches ErrInvalidCondition, and the server's error when there is one.
type InvalidConditionError struct {
	// Object identifies the object: "Kind namespace/name".
	Object string
	// Problems name each condition (by path and type) and the rule it breaks.
	Problems []string
	// Server is the API server's refusal of the write (apierrors.IsInvalid),
	// nil when nothing was sent (apply mode's ApplyStatus).
	Server error
}

func (e *InvalidConditionError) Error() string {
	if e.Server != nil {
		return fmt.Sprintf("statuspatch: %s: %v, the API server refused the whole status write, nothing stored: %s (the server: %v)",
			e.Object, ErrInvalidCondition, strings.Join(e.Problems, "; "), e.Server)
	}
	return fmt.Sprintf("statuspatch: %s: %v, nothing was sent (the API server would refuse the whole status write): %s",
		e.Object, ErrInvalidCondition, strings.Join(e.Problems, "; "))
}

// Unwrap returns ErrInvalidCondition and the server's error, if any.
func (e *InvalidConditionError) Unwrap() []error {
	if e.Server != nil {
		return []error{ErrInvalidCondition, e.Server}
	}
	return []error{ErrInvalidCondition}
}

// ErrStatusDiverged matches (errors.Is) the error Flush returns, with
// WithDivergenceError, when the server accepted a status write but stored
// something else than was sent: it pruned a field its CRD schema lacks, or
// defaulted or rewrote one. Without the option Flush returns nil and the
// divergence is logged and counted. Either way the write happened and the
// object holds what the server stored.
var ErrStatusDiverged = errors.New("the server stored a different status than was written")

// StatusDivergedError names the status paths the server stored differently
// from what was written. It matches ErrStatusDiverged.
type StatusDivergedError struct {
	// Object identifies the object: "Kind namespace/name".
	Object string
	// Paths are JSON paths such as "status.pruned", each with its likely
	// cause.
	Paths []Divergence
}

// Divergence is one status path the server stored differently.
type Divergence struct {
	// Path is a JSON path such as "status.replicas".
	Path string
	// Cause is "pruned" (sent, not stored: the CRD schema lacks it),
	// "defaulted" (stored, not sent: a schema default) or "rewritten" (stored
	// with another value).
	Cause string
}

func (e *StatusDivergedError) Error() string {
	parts := make([]string, len(e.Paths))
	for i, d := range e.Paths {
		parts[i] = d.Path + " (" + d.Cause + ")"
	}
	return fmt.Sprintf("statuspatch: %s: %v: %s; the write happened, but the same write will be sent again on every reconcile: "+
		"check the installed CRD's status schema against the Go type (missing fields are pruned; defaults fill unset ones)",
		e.Object, ErrStatusDiverged, strings.Join(parts, ", "))
}

// Unwrap returns ErrStatusDiverged.
func (e *StatusDivergedError) Unwrap() error { return ErrStatusDiverged }

// ErrStaleCache matches (errors.Is) the error a Patcher returns, instead of
// writing, when its object was read after this process had already written
// a newer version of it: the cache it was read from lags behind this
// process's own write, so a decision made from it would be undone or
// conflict. Requeue the reconcile (StaleCacheError.RequeueAfter says how
// soon), or pass WithAPIReader so that the patcher reads the object fresh
// instead.
var ErrStaleCache = errors.New("stale cache")

// StaleCacheRequeue is the RequeueAfter of a StaleCacheError: how soon a
// reconcile that read from a lagging cache should run again. A watch event
// usually reaches the cache within milliseconds; the event of the write
// itself also triggers a reconcile when it arrives.
const StaleCacheRequeue = 100 * time.Millisecond

// StaleCacheError is returned, instead of a write, by a Patcher whose object
// is older than this process's last write to it although the read began
// after that write had completed. It matches ErrStaleCache.
type StaleCacheError struct {
	// Object identifies the object: "Kind namespace/name".
	Object string
	// Read is the resourceVersion of the object the patcher was made from.
	Read string
	// Written is the resourceVersion this process's last write produced.
	Written string
	// RequeueAfter is a suggested delay before reconciling again.
	RequeueAfter time.Duration
}

func (e *StaleCacheError) Error() string {
	return fmt.Sprintf("statuspatch: %s: %v: read resourceVersion %s after this process wrote %s; nothing was sent. "+
		"Requeue (ctrl.Result{RequeueAfter: %s}) or pass WithAPIReader(mgr.GetAPIReader()) (patcher.ForManager does) to read it fresh",
		e.Object, ErrStaleCache, e.Read, e.Written, e.RequeueAfter)
}

// Unwrap returns ErrStaleCache.
func (e *StaleCacheError) Unwrap() error { return ErrStaleCache }

// ErrWriteOutcomeUnknown matches (errors.Is) the error Flush and Retry
// return when a status write was sent, its response was lost, and whether
// the server stored it cannot be told: the context ended first, the object
// could not be read back, another writer overwrote the status since, or,
// after a 409, the object's history (which tells whether the first write
// after the base was this one) could not be read.
// The write was stored once or not at all. Do not run the same decision
// again on this patcher: fetch the object again and decide from what the
// server holds.
var ErrWriteOutcomeUnknown = errors.New("status write outcome unknown")

// WriteOutcomeUnknownError is the error matching ErrWriteOutcomeUnknown. It
// unwraps to the error of the write (or of the read after it), except a
// Conflict: it must not satisfy apierrors.IsConflict, which makes callers
// write again.
type WriteOutcomeUnknownError struct {
	// Object identifies the object: "Kind namespace/name".
	Object string
	// Why says what kept the outcome from being known.
	Why string
	// Cause is the error the write got.
	Cause error
}

func (e *WriteOutcomeUnknownError) Error() string {
	return fmt.Sprintf("statuspatch: %s: %v: %s (the write got: %v); it was stored once or not at all. "+
		"Fetch the object again and decide from what the server holds", e.Object, ErrWriteOutcomeUnknown, e.Why, e.Cause)
}

// Unwrap returns ErrWriteOutcomeUnknown and the cause, unless it is a
// Conflict: then the errors wrapped beside the Conflict (the context's
// error and its cause, when the context ended while a 409 was settled).
func (e *WriteOutcomeUnknownError) Unwrap() []error {
	return append([]error{ErrWriteOutcomeUnknown}, besideConflicts(e.Cause)...)
}

// besideConflicts returns err when it is no Conflict; else, from the
// errors it wraps, those that are none, so that nothing returned satisfies
// apierrors.IsConflict.
func besideConflicts(err error) []error {
	if err == nil {
		return nil
	}
	if !apierrors.IsConflict(err) {
		return []error{err}
	}
	var out []error
	switch u := err.(type) { //nolint:errorlint // walks the wrap tree itself, one level at a time
	case interface{ Unwrap() []error }:
		for _, w := range u.Unwrap() {
			out = append(out, besideConflicts(w)...)
		}
	case interface{ Unwrap() error }:
		out = besideConflicts(u.Unwrap())
	}
	return out
}
