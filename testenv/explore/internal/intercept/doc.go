// Package intercept builds the clients a reconciler under the explorer
// is given (Clients): every call of controller-runtime's client goes to
// the run through its Handler, under the run's lock of the clients'
// calls, except a dry run, which goes to the server as asked and is
// recorded nowhere (DryRun). Comparable puts them behind a pointer, as a
// manager's client is, carrying the schedule's seeded source (SourceOf).
// The rest reads a request as the run records it: its verb (ApplyVerb),
// the lock it carries (LockOf, BodyRV), the answer's content
// (AnswerContent), whether it may have deleted the object (Finalizing).
//
// What a call does (the version it reads, the write it records, the
// invariants it checks) is the run's, in the root: nothing here keeps
// state. It imports of the explorer's module only internal/crinternals
// and internal/seeded (imports_test.go in the explorer's folder checks
// it).
package intercept
