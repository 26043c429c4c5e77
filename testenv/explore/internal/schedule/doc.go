// Package schedule is what a schedule of the explorer is made of, as a
// replay runs it and a seed names it: its chosen steps (Chosen), each a
// queued reconcile, action or delivery of a write left in flight (Item),
// the lag of each cached read, and where the step crashes (Crash); and
// the seed's text (Format, Parse, ID), read against the scenario's names
// (Names).
//
// A seed is the chosen steps of a schedule, space-separated. A reconcile
// is "reconciler:namespace/name@lag,lag" ("reconciler:name@..." for a
// cluster-scoped object): the lags are how many versions behind the newest
// each cached read of the step saw, in order, then, if the step crashed,
// the crash ("#2", "#2L", "#2Z", "#2Z3": Crash). An action is "!name".
// The delivery of the write a "#nZ" step left in flight is "~" and that
// step's reconciler:namespace/name; of its k-th (k > 1) after a "#nZk",
// "~k:" and the same. A schedule with no chosen step (only its drain) is
// "-".
//
// It imports of the explorer's module only internal/book
// (imports_test.go in the explorer's folder checks it).
package schedule
