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
//   - fields.go: Owners (managedFields decoded) and Fields, the builder.
//   - sets.go: +listType=set lists, recognised from managedFields.
//   - rebase.go: the no-lock rebase.
//
// What is still in patcher (apply.go, applystatus.go, applystored.go,
// applyunlocked.go, applymode.go) reads the server, holds the Patcher's
// state, or returns public types (Divergence), and moves here step by step.
//
// # Layering
//
// apply imports no other package of the patcher module: neither
// patcher nor another package under patcher/internal.
// patcher/internal/layers_test.go enforces the graph written in
// patcher/doc.go.
package apply
