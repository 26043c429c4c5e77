// Package guard holds the patcher's checks before a status write: what the
// API server would refuse and what a status write would silently drop (the
// stale-cache check is the version book's, patcher/internal/book). It is
// non-generic: it takes statuses and objects as pointers (any,
// metav1.Object), resourceVersions as strings, and returns plain results
// (lists of problems or fields). The patcher maps them to its public
// errors (ErrInvalidCondition, ErrNonStatusChange, ErrInvalidInput), which
// stay defined in patcher.
//
//   - The condition guard: every changed metav1.Condition against the
//     schema controller-gen emits (InvalidConditions).
//   - The owned conditions of WithOwnedConditions: which changes are this
//     writer's alone, and how they move onto a fresh read.
//   - The fields outside status that a status write would drop
//     (NonStatusChanges, UnsavedVsBoth).
//
// What reads or writes the server (a fresh read, a list at an exact
// resourceVersion) stays in the patcher.
package guard
