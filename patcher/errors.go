package patcher

import (
	"errors"
	"fmt"
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

// ErrNilPatcher is returned by the methods of a nil *Patcher, such as the one
// a failed Fetch returns, instead of a panic.
var ErrNilPatcher = errors.New("statuspatch: nil patcher (did Fetch fail?)")

// RetryExhaustedError is returned by Retry when all attempts conflicted. It
// unwraps to ErrRetryExhausted and to the last Conflict error.
type RetryExhaustedError struct {
	// Object identifies the object: "Kind namespace/name".
	Object string
	// Attempts is the number of writes tried.
	Attempts int
	// Last is the last attempt's Conflict error.
	Last error
}

func (e *RetryExhaustedError) Error() string {
	return fmt.Sprintf("statuspatch: %s: %v after %d attempts: %v", e.Object, ErrRetryExhausted, e.Attempts, e.Last)
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
	return fmt.Sprintf("statuspatch: %s: %v to %s: a status write would drop it; write it with the main resource (or AddFinalizer/RemoveFinalizer) first",
		e.Object, ErrNonStatusChange, strings.Join(e.Fields, ", "))
}

// Unwrap returns ErrNonStatusChange.
func (e *NonStatusChangeError) Unwrap() error { return ErrNonStatusChange }
