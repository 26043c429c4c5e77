// Package informers models what a manager's cache may serve the
// reconcilers' cached reads: which version of each object each informer
// of the process has served (View, keyed by Key: a kind and a
// representation), the cold-restart floors and the field indexes Setup
// registered (Model), the points of the schedule a cached List may be
// served from (Model.Points, Point), the list served at one
// (Model.SetListAt) and the objects it shows (Model.ServeList), what a
// stale window at a point serves (WindowLag, WindowListLag,
// Model.ListSeq; Model.WindowPoint for the state hash), what the served
// API's second cache holds (Held), what a schedule knows of each kind's
// newest revision (Floors, set again after a reset from its leftovers)
// and Lists sent at least as new as their kind's floor (FreshLists,
// NotOlderThan), and a List sent to the server, through the indexes for
// a field selector, whose items the book then holds (Model.Fetch).
//
// The package holds facts and bounds, not choices: which lag a read is
// served at, which stale windows are open and their units, and what a
// step records of each read are the schedule's (the explorer's
// cachemodel.go, window.go and listlag.go), which take them from here.
// It imports no package of the explorer's module but book, served,
// recmgr and reset (imports_test.go in the explorer's folder checks it).
package informers
