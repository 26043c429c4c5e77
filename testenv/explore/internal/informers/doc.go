// Package informers models what a manager's cache may serve the
// reconcilers' cached reads, and serves them. The facts: which version of
// each object each informer of the process has served (View, keyed by
// Key: a kind and a representation), the cold-restart floors and the
// field indexes Setup registered (Model), the points of the schedule a
// cached List may be served from (Model.Points, Point), the list served
// at one (Model.SetListAt) and the objects it shows (Model.ServeList),
// what a stale window at a point serves (WindowLag, WindowListLag,
// Model.ListSeq; Model.WindowPoint for the state hash), what the served
// API's second cache holds (Held, read through ServedBook), what a
// schedule knows of each kind's newest revision (Floors, set again after
// a reset from its leftovers) and Lists sent at least as new as their
// kind's floor (FreshLists, NotOlderThan), and a List sent to the
// server, through the indexes for a field selector, whose items the book
// then holds (Model.Fetch).
//
// The cache model on them (Cache): the lag each cached read is served at
// among those (ChooseLag), the stale windows open and their units
// (stale.go: NoteWindow, the Window records), the Lists served from the
// book (cachelist.go) and what the second cache held at a step's start
// (MarkSeen). The choices themselves are the search's, and the records
// the schedule's: Cache reaches them only through the Trace and Setup
// interfaces the explorer's run implements (internal/run's cachemodel.go), never
// the run, the step or the trace. The package imports no package of the
// explorer's module but book, served, recmgr and reset (imports_test.go
// in the explorer's folder checks it).
package informers
