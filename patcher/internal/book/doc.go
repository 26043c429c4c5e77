// Package book is the patcher's version book (docs/patcher.md): what this
// process's patchers know about each object they wrote or read, one Record
// per object and client.
//
//   - The newest resourceVersion seen: from their own successful writes and
//     from every read they made. The server returned it, so it is a lower
//     bound of the object's current version, and a write based on an older
//     version is certain to conflict: the patcher returns the Conflict
//     without sending the request (NewerThan).
//   - The last own write: its resourceVersion, the object's UID, and a
//     sequence number taken when the response had arrived. A read that began
//     after that (it took a sequence number at least as high) and still
//     returned an older object came from a lagging cache: the stale read
//     that patcher.Fresh and Fetch catch (Check). A read that began earlier
//     raced the write: a write from it conflicts, and the lock handles that.
//   - A write slot: one write per object at a time per client, so a
//     manager's workers queue instead of racing each other into 409s
//     (Acquire).
//
// Records are keyed by the client the patcher writes through (a manager's
// client: two managers in one process, as in the demo and in tests, behave
// as two processes would), the object's Go type and its namespace and
// name. A Book holds at most two generations of its size: when the current
// generation is full it becomes the old one and the previous old one is
// dropped; an object found in the old generation moves to the current one.
// Forgetting an object only forgoes the shortcut and the stale-read check:
// the server's lock still decides.
//
// The package does no I/O; the patcher maps its results (State) to its
// public errors (ErrStaleCache, a Conflict without a request).
package book
