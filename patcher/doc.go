// Package patcher is the runtime behind every generated <Kind>StatusPatcher.
//
// A Patcher is made from an object the caller has just fetched. It captures
// that object as its base, the caller mutates Object() in memory, and Flush
// writes the status difference as one JSON merge patch to the status
// subresource, carrying the base's resourceVersion. The API server rejects
// the write with 409 Conflict when anyone else wrote the object since, so a
// concurrent write is never silently overwritten. A Flush with no status
// change sends no request at all.
//
// Retry runs the caller's mutation, flushes, and on a conflict re-reads the
// object through the API reader (never a cache), makes it the new base and
// runs the mutation again on the fresh state. Two reconciles that both saw
// "no plan yet" therefore end with one plan: the second run sees the first
// run's plan.
//
// # A manager's defaults and stale caches
//
// ForManager(mgr) returns the manager's client carrying the manager's API
// reader (and any other options) for every Patcher made from it, generated
// ones included. Every successful write is recorded, process-wide and
// bounded (MaxTrackedObjects); a Patcher made by Fetch from an object older
// than this process's own last write to it, read after that write had
// completed, reads it again through the API reader or, without one, refuses
// to write with ErrStaleCache (a StaleCacheError with a RequeueAfter). A read
// that merely raced with the write is an ordinary conflict. Fresh checks
// before any work.
//
// # Metadata writes and the self-conflict trap
//
// A reconciler that adds a finalizer after fetching changes the object's
// resourceVersion, and a later status write from the old base would conflict
// with the reconciler's own write. Use AddFinalizer and RemoveFinalizer: they
// write the finalizer list with the same optimistic lock and move the base
// forward, keeping the caller's in-memory status changes. If the caller wrote
// the object itself (r.Update, r.Patch) on the same pointer, Flush notices that
// the resourceVersion moved, re-reads the object, and re-bases only when the
// server's status still equals the base's status; otherwise it returns a
// Conflict, so no concurrent status write is ever lost.
//
// # Unpersisted changes
//
// A status write drops changes to spec, labels, annotations, finalizers and
// owner references. When Flush is about to write and the caller changed any
// of those in memory, it sends nothing and returns an error matching
// ErrNonStatusChange that names the fields. A Flush that would write nothing
// does not check: no write drops anything, and the check would cost a
// comparison of the whole spec on every no-op reconcile.
//
// # Deleted objects
//
// Flushing after the object is gone returns an error for which
// apierrors.IsNotFound is true. A reconciler treats it as "nothing left to
// report": client.IgnoreNotFound(err). After RemoveFinalizer removed the last
// finalizer of an object that is being deleted, the server deletes it; Flush
// then returns NotFound without sending a request.
//
// # Apply mode
//
// WithWriteMode(WriteApply) makes Flush write a server-side apply under
// the field owner (WithFieldOwner is required) with forced ownership; Flush,
// Retry, the no-op rule and the finalizer helpers stay the same. The apply carries the base's resourceVersion, so a decision made on
// stale state gets a 409 and Retry makes it again on fresh state. It holds
// the status fields this manager owns by Apply (read from the base's
// metadata.managedFields) and the fields changed since the base, never
// other managers' fields; conditions and WithListMapKeys lists are owned
// item by item, so another controller's conditions are never touched. A
// removal an apply cannot make (the field is another manager's too) is an
// error matching ErrApplyCannotRemove, and nothing is sent. ApplyStatus
// takes the status to own as an apply configuration (controller-gen's
// applyconfiguration output) instead of in-memory changes.
// WriteApplyWithoutLock drops the resourceVersion: safe only for fields
// this manager alone owns whose values do not depend on what it read.
// docs/apply.md has the details.
//
// # Concurrency
//
// A Patcher is meant for one reconcile on one goroutine. It is not safe to
// share between goroutines; make one per reconcile.
package patcher

// Layering (not package documentation: the public API is the same).
//
// patcher is the façade: Patcher[T], Client, Option, the errors and the
// helpers generated code calls. What sits behind it is non-generic, under
// patcher/internal, one concern per package (each package's comment says
// which). Which of them may import which is written once, in the allowed
// map of patcher/internal/layers_test.go, which enforces it.
//
// Inside the façade, the Patcher orchestrates reads, writes and settling
// around a snapshot (snapshot.go), which it embeds: the object, its base
// and the diff between them, with no client.
