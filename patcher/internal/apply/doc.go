// Package apply builds the status of a server-side apply (docs/apply.md):
// from the in-memory status and the base's, as decoded JSON, and the
// object's metadata.managedFields, it finds what the apply must hold (the
// fields this manager owns and the fields changed since the base), what it
// cannot remove (another manager's), and, for WriteApplyWithoutLock, the
// decision rebased onto a fresh read. It is non-generic and does no I/O:
// the patcher reads, sends, and maps what Fields found (Blocked, Dups,
// Errs) to its public errors (ErrApplyCannotRemove, ErrInvalidCondition,
// ErrInvalidInput).
//
// Owners decodes managedFields, Fields builds the apply, SetLists
// recognises +listType=set lists from managedFields, ConditionLists finds
// the []metav1.Condition lists of a status type, Conditions completes
// applied conditions as meta.SetStatusCondition would, Stored compares
// what was stored with the apply, and the no-lock rebase moves a decision
// onto a fresh read. What reads the server, holds the
// Patcher's state or returns public types (Divergence) stays in patcher.
package apply
