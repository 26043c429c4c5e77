// Package guard holds the patcher's checks before a status write: what the
// API server would refuse, what a status write would silently drop, and
// whether the object was read from a cache that lags behind this process's
// own write. It is non-generic: it takes statuses and objects as pointers
// (any, metav1.Object), resourceVersions and UIDs as strings, and returns
// plain results (lists of problems or fields, a ReadState). The patcher
// maps them to its public errors (ErrInvalidCondition, ErrNonStatusChange,
// ErrStaleCache, ErrInvalidInput), which stay defined in patcher.
//
//   - conditions.go: the condition guard, every changed metav1.Condition
//     against the schema controller-gen emits (InvalidConditions).
//   - owned.go: the owned conditions of WithOwnedConditions (which changes
//     are this writer's alone, and how they move onto a fresh read).
//   - nonstatus.go, unsaved.go: the fields outside status that a status
//     write would drop (NonStatusChanges, UnsavedVsBoth).
//   - freshness.go: the stale-cache check (CheckRead).
//
// What reads or writes the server (a fresh read, a list at an exact
// resourceVersion, the records of own writes) stays in the patcher.
//
// # Layering
//
// guard imports no other package of the patcher module: neither
// patcher nor another package under patcher/internal.
// patcher/internal/layers_test.go enforces the graph written in
// patcher/doc.go.
package guard
