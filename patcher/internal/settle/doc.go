// Package settle decides what became of a status write whose response did
// not say: a write sent with the base's resourceVersion (the lock) that got
// a 409, a 429, a 5xx or a transport error. It is the non-generic core of
// the patcher's settling: it takes the object as decoded JSON and its
// metadata, and returns an Outcome; the patcher maps the outcomes to its
// public errors (Landed: success; Conflict: apierrors.IsConflict; Unknown:
// ErrWriteOutcomeUnknown).
//
// # The protocol
//
// "Stored" is decided by evidence, never by re-applying what was sent and
// comparing values alone: the server may store something else than was
// sent (a pruned field, a default, a webhook, a JSON Patch remove) and a
// removal leaves nothing to compare. The evidence, strongest first:
//
//  1. The lock. A write that carries the base's resourceVersion can only be
//     stored as the first write after the base. Once another write is the
//     first after the base, this one was not stored and never will be.
//  2. The object's history, ordered by resourceVersion (a watch from the
//     base's resourceVersion, the patcher's watcher): its first event after
//     the base is the only version this write can have produced.
//  3. managedFields. A write stamps its manager's entry (manager, operation,
//     subresource) with the time and adds the fields it set; a write by
//     another entry (another manager, or this manager's other operation)
//     stamps that entry instead. The time has one-second resolution, so an
//     entry unchanged since the base says nothing when both writes fell in
//     one second; a manager name shared by several writers (all clients of
//     one binary share the default) makes "this manager's entry changed"
//     evidence that this manager wrote, not that this patcher did.
//  4. Values, only to corroborate: the first write after the base changed
//     nothing this write does not touch, no field this write sets holds
//     another value (a field missing from the object was pruned: no
//     evidence either way), and every field this write removes is gone.
//     A removal is stored only when the server no longer holds it.
//
// # The outcomes
//
// Landed: the write was stored. From the history (First): the first
// version after the base is consistent with this write (4) and no other
// entry was stamped by it (3). From a read without the history (Fresh):
// this write's entry was stamped after the base and the read is consistent
// with this write's values and removals.
//
// Conflict: the write was not stored and cannot be. From the history: the
// first version after the base was stamped by another entry and not by
// this one, or it changed a field this write does not touch or set one to
// another value without this entry being stamped (then it is another
// writer's: this write, had it been first, would be that version). From a
// read without the history: this write's entry was not stamped although
// this write would have stamped it with a later second than the entry
// holds (the base already held a time later than this entry's, and the
// write sets a value), or the object was deleted and made again.
//
// Unknown: the evidence cannot tell. The patcher returns
// ErrWriteOutcomeUnknown, never a false Conflict (which would make Retry
// store the decision twice) nor a false success (which would lose it).
//
// # When the history is needed
//
// A read of the object at the base (or older) after a 409 comes from a
// reader that lags (the 409 proves the server moved past the base): it is
// no evidence, read again. A read past the base settles the write only
// when managedFields do (Fresh); otherwise the history decides (First),
// which needs a watcher. Without one, the outcome is Unknown.
package settle
