// Package settle decides what became of a status write whose response did
// not say: a write sent with the base's resourceVersion (the lock) that got
// a 409, a 429, a 5xx or a transport error. It is the non-generic core of
// the patcher's settling: it takes the object as decoded JSON and its
// metadata, and returns an Outcome; the patcher maps the outcomes to its
// public errors (Landed: success; Conflict: apierrors.IsConflict; Unknown:
// ErrWriteOutcomeUnknown). Run is the settle's loop (read back, decide,
// send again while at the base) over an Attempt, the I/O the patcher
// implements over its Go type.
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
//     base's resourceVersion, or lists at exact resourceVersions): its
//     first version after the base is the only one this write can have
//     produced.
//  3. managedFields. A write stamps its manager's entry (manager, operation,
//     subresource) with the time and adds the fields it set; a write by
//     another entry (another manager, or this manager's other operation)
//     stamps that entry instead. The time has one-second resolution, so an
//     entry unchanged since the base says nothing when both writes fell in
//     one second (another controller writing twice within one second keeps
//     its entry's time and fields: it is not "unstamped"); a manager name
//     shared by several writers (all clients of one binary share the
//     default) makes "this manager's entry changed" evidence that this
//     manager wrote, not that this patcher did.
//  4. Exact values (First). The first version after the base is this
//     write's only when it is exactly the base plus this write: the sent
//     merge patch or JSON Patch replayed on the base (an apply: its values
//     set, map-list items by key, set values one by one, and the fields
//     this writer alone owned and no longer applies removed), compared
//     with the whole object (the status, and the rest unchanged but for
//     resourceVersion and managedFields), not only the paths the write
//     touches. Lists compare by their declared type: atomic in order, a
//     set as a set, a map list item by item by its keys. Every difference
//     must be explained by the server's published schema for the object
//     (Schema, the CRD's openAPIV3Schema, read from the server by the
//     patcher, never assumed): a field the write holds and the version
//     lacks is one the schema prunes (not in it, and not under
//     x-kubernetes-preserve-unknown-fields); a field the version holds
//     and the write lacks is one the schema defaults, with that value.
//     Any other difference makes the version another writer's. A value
//     that merely looks like this write's (a shared phase, a subset of
//     the write) proves nothing.
//
// # The outcomes
//
// Landed: the write was stored. From the history (First): the first
// version after the base is exactly the base plus this write as above,
// differs from the base, and stamped no other managedFields entry without
// this writer's. From a read without the history (Fresh): the read holds
// every value the write sets and none it removes (the server stored
// exactly what was sent, or another writer the same values: the decided
// state is on the server either way). A stamp of this writer's entry is
// not enough there: a writer sharing the manager name stamps it too, and a
// field the read lacks may be pruned or never stored; the history tells
// them apart.
//
// Conflict: the write was not stored and cannot be. From the history: the
// first version after the base stamped another entry and not this
// writer's, or differs from the base plus this write where the schema
// explains nothing (another value, an item of ours lacking, a field this
// write does not touch changed, a removed field still held): it is another
// writer's. From a read: this writer's entry holds the same time as at the
// base although the base already held a later second, and the write sets a
// value (a stored write would have stamped it); or the object was deleted
// and made again (another UID).
//
// Unknown: the evidence cannot tell: the first version after the base
// differs from the base plus this write only where a schema could explain
// it and the schema could not be read (no permission to read CRDs, a
// built-in kind: Decision.NeedsSchema, thin evidence), it shows no change
// from the base, both entries were stamped, or, without the history,
// nothing above applies (this writer's entry unchanged with both writes in
// one second). Anything not provably this write's and not provably
// another writer's is Unknown: the patcher returns ErrWriteOutcomeUnknown,
// never a false Conflict (which would make Retry store the decision twice)
// nor a false success (which would lose it).
//
// Known limits: a write whose manager the patcher does not know (no field
// owner: the server names it after the client's user agent) has no
// managedFields evidence, only the lock, the history and values; a
// mutating webhook on the status subresource that rewrites a value this
// write set makes the history's first version look like another writer's;
// the object is compared as the patcher's Go type reads it, so a field the
// type lacks is seen by neither side.

// # When the history is needed
//
// A 409 to a request that went on the wire once never gets here: it is
// the server's refusal (patcher/sends.go). A read at the base after a 409
// comes from a reader that lags (the 409 proves the server moved past the
// base): it is no evidence; the object is read again (three reads in
// all), unless the read cannot lag (the status subresource's, which the
// patcher reads without an API reader): then the 409 did not come from
// the server, and the write was not stored. A read past the base settles the write
// when Fresh does; otherwise the first version after the base decides
// (First). The patcher finds it, strongest source first:
//
//   - the watcher (WithWatcher, a ForManager client): one watch from the
//     base's resourceVersion;
//   - without one, the read itself when its resourceVersion is the base's
//     plus one: resourceVersions are etcd's revisions, one counter for the
//     whole store, so no version of the object lies between (the common
//     case: one other writer, no request more);
//   - else the client's (or the API reader's) own watch, when it is a
//     client.WithWatch, used exactly as a watcher;
//   - else lists of the object's name at exact resourceVersions
//     (resourceVersionMatch=Exact) through the API reader, halving the
//     range between the base and the read: about log2(read - base) lists.
//
// A watch event of another object is skipped, and one later than the read
// proves the watch does not replay the history (a fake client's starts
// now); a list that does not answer at the resourceVersion asked (a cache,
// a fake) proves the reader keeps no past versions. Then, and when the
// server no longer keeps the versions (a 410 after etcd's compaction), a
// refused watch or list, or no event within the bound, the outcome is
// Unknown, whose message says how to make it decidable (a watcher);
// never a Conflict taken on trust. This holds with distinct field managers,
// with a shared manager name and with none: the history, not the stamp,
// tells whose write came first. What remains taken for a Conflict without
// a configured watcher is a 409 whose reads all stayed at the base, the
// last of them the status subresource's (no cache serves it), or, where
// that read is refused (a fake client), three reads through the API
// reader: the history cannot be found from the base alone. A 422 answering a JSON Patch that removes a member is
// settled like a 409: it may be client-go's resend of a stored write,
// refused because the member is already gone.
package settle
