// Package book is the explorer's book of a schedule: every version of
// every object the server held, as the explorer's client saw them, in the
// order first met (Book), each object's versions with their
// resourceVersions, the step whose write made each and who last set each
// path (History), the object an apply configuration names (KeyOfApply),
// and what an apply was decided from (Decision), read
// with the server's managedFields (Restated); and what two versions
// differ in, as a report says it (DescribeChange, FirstDifference,
// TimeLikeOnly), a map list compared by the keys the kind's served schema
// declares (Book.ListKeys, Compare).
//
// The explorer records each version it sees (a write's result, a read of
// an object not met before) with Book.Record, Observe or Known, and reads
// the book through History and Keys; the per-write invariants run on each
// new version through the callback given to New. The book knows nothing
// of steps, caches or the search: it imports no package of the explorer's
// module (imports_test.go in the explorer's folder checks it).
package book
