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
// removal leaves nothing to compare. A write that carries a write token
// (Write.Token, the patcher's WithWriteToken) is settled by it first and
// exactly (token.go): a read holding the token is this write, stored once;
// the first version after the base holding another token is another
// request's, and so is one holding none, but only where the server has
// shown that it stores the field (Token.Stored: its own answers held a
// token the patcher sent, and none since lacked one; a schema may rule
// that out, the version read's or the storage version's, never in). Where
// the token cannot tell, it is no evidence at all: its own value is no
// change (Write.Stamps) and is compared as absent (First), and the
// evidence below is asked as for a write without it. The evidence,
// strongest first:
//
//  1. The lock. A write that carries the base's resourceVersion can only be
//     stored as the first write after the base. Once another write is the
//     first after the base, this one was not stored and never will be.
//  2. The object's history, ordered by resourceVersion (a watch from the
//     base's resourceVersion, or lists at exact resourceVersions): its
//     first version after the base is the only one this write can have
//     produced.
//  3. managedFields, only as far as the server's field manager is obliged
//     (the table below). A write that adds or changes a value stamps its
//     manager's entry (manager, operation, subresource and, for an
//     Update, the apiVersion it was sent with) with the time and adds the
//     fields it set; a write by another entry (another manager, this
//     manager's other operation, or its Update through another
//     apiVersion) stamps that entry instead. A write that only removes
//     stamps nothing. The time has one-second resolution, so an
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
// # What the field manager guarantees
//
// The API server's field manager (k8s.io/apiserver's managedfields) is the
// only source of managedFields; settling takes from it only what it must
// do:
//
//	what                        | guaranteed                                   | not guaranteed
//	----------------------------+----------------------------------------------+-----------------------------------------------
//	stamp of an Update          | a write that adds or changes a field sets    | any stamp for a write that only removes (map-
//	                            | its entry's time and adds the fields         | list items, set values, conditions, map keys)
//	time                        | the second the write was stored              | anything finer: two writes in one second leave
//	                            |                                              | the entry as one did
//	entries per apiVersion      | one entry per (manager, Update, subresource, | one per manager: pair entries without the
//	                            | apiVersion); an apply's one across versions  | apiVersion and either looks stamped
//	cap of ten Update entries   | the oldest merged into "ancient-changes"     | whose fields "ancient-changes" holds: any
//	                            |                                              | merged writer's, this one's too
//	dry runs                    | through the same field manager, cap included | a dry run's entry naming the client: it may be
//	                            |                                              | merged into "ancient-changes" (no manager)
//	subresource entries         | a write through the status subresource       | more: a version that differs from the base
//	                            | stamps an entry with subresource "status",   | only in its status is taken as a status
//	                            | one through the main resource subresource "" | write's (a CRD's main resource ignores status)
//
// Landed needs this request's own stamp in that version (a change of this
// writer's entry for the apiVersion it was sent with, that no other
// request could have made); Conflict needs another writer's stamp or a
// value only another write can hold. Removal-only writes (Write.Stamps
// false), writers that cannot be told apart and a manager probe that did
// not answer with a real manager name (RealManager) are Unknown.
//
// # The outcomes
//
// Each verdict needs its own evidence, as exact as the other's; values
// that look like this write's, or not, are never one alone.
//
// Landed: the write was stored. Only from the history (First): the first
// version after the base stamped this writer's managedFields entry (its
// time or fields changed; or, no entry stamped, its entry alone holds the
// newest second among the status writers' entries, and the write adds
// or changes a value: the writer of that version, whichever it was,
// stamped its own entry with a second no earlier than any, and keeps an
// entry)
// and no other entry, and it is exactly the base plus this write as above
// and differs from the base. A read past the base without the history
// (Fresh) never lands a write: another writer may have stored the same
// values from the same base (two controllers each setting restarts = read
// + 1: the same value, one increment on the server). An apply without the
// lock is the exception (Held): it asks for its values, not for the first
// write after the base, so a read holding them settles it.
//
// Conflict: the write was not stored and cannot be. From the history: the
// first version after the base stamped another entry and not this
// writer's (ancient-changes, into which the server merges the oldest of
// more than ten Update entries, may hold this writer's and is no other
// writer), or it holds another scalar, or a list of other scalars, at a
// field this write sets (the server prunes and defaults absent fields; it
// rewrites no scalar it keeps but through a mutating webhook: a limit
// below), whoever's entry was stamped. From a read: this writer's entry holds the same time as
// at the base although the base already held a later second, and the
// write adds or changes a value (a stored write would have stamped it;
// one that only removes stamps nothing). From either:
// the object was deleted and made again (another UID).
//
// Unknown: everything else. A first version after the base that is not
// the base plus this write, but with no entry of another writer stamped
// (the server's nested defaults, a default only the storage version
// declares, a pruned null, a mutating webhook, or a writer sharing this
// manager name: they look alike); one that differs only where a schema
// could explain it and the schema could not be read (Decision.NeedsSchema);
// one with both entries stamped, or none that tells (same-second writes
// and a tie at the newest second); a write that only removes, whose
// stamp nothing shows; no field owner and no real manager name from the
// server's dry run (the server names the manager after the client's user
// agent, which the patcher cannot see, and on a busy object the dry run's
// entry is merged into ancient-changes); a
// base without managedFields (read through a cache that transforms its
// objects: TransformStripManagedFields); the ancient-changes merge; and,
// without the history, any read past the base that does not prove a
// Conflict. The patcher returns ErrWriteOutcomeUnknown, never a false
// Conflict (which would make Retry store the decision twice) nor a false
// success (which would lose it).
//
// Known limits: the field owner names this writer: writers in other
// processes (or through other clients) that share it stamp the same entry,
// and one of them writing exactly the base plus this write is taken for
// this write (patchers of one client share a write slot and the versions
// seen, so theirs never race: patcher/internal/book); a mutating webhook
// on the status subresource (or a conversion webhook) that sets a field
// this write does not set leaves the outcome Unknown (the first version is
// not the base plus this write, and no other entry was stamped), while one
// that rewrites a scalar this write sets makes that version look like
// another writer's: a Conflict, the protocol's one false Conflict (a
// write token the webhook keeps settles it exactly: the version holds it);
// entries' times come
// from the API servers' clocks, taken as one clock (one API server, or
// clocks within the second); the object is compared as the patcher's Go
// type reads it, so a field the type lacks is seen by neither side.
//
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
