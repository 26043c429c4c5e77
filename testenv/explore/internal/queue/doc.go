// Package queue decides what the explorer's work queue queues for the
// event of an object's newest version in the book (Router): for each
// reconciler, by its For and Owns kinds through its predicates
// (Reconciler.Predicates, EventFilter), or through the watches Setup
// built (recmgr.Controller), running the operator's predicates and event
// handlers as the manager would. It holds the lock of the clients' calls
// (Calls), which that operator code runs without.
//
// It holds the run's queue too (Work): the queued items, in order,
// without repeats; the run chooses which runs next. It does not know the
// run, the trace or the search. It reads the versions from the book and the
// kinds' scopes and Go types from the server's client.
package queue
