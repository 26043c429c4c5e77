// Package search is the explorer's search over schedules, apart from the
// run of one schedule: the root runs a schedule with the choices it is
// given and hands back its verdict (Runner), and the search decides which
// schedules to run. Minimise shrinks a failing schedule while the same
// invariants still break; RunRandom runs seeded random schedules on a
// pool of workers, DepthFirst every schedule, shortest first, on one
// worker or several (the serial search is the one on one worker), and
// Deepen runs the levels of an iterative deepening. Run is one search at
// fixed bounds, depth-first or random, within a deadline: what the root
// asks of it for each level of its search. Faults runs the fault phase
// in its order, the pilot, its verdict minimised, then the random
// search, through the Phase the root implements; the fault model (the
// plans, their odds) is internal/faults', not this package's.
//
// It imports of the explorer's module only internal/schedule
// (imports_test.go in the explorer's folder checks it).
package search
