// Package setup reads a scenario once, when Run starts, into what every
// schedule and worker of the search then shares unchanged: it checks the
// reconcilers' and actions' names (ValidName) and reads their kinds
// (Read: each reconciler's For and Owns kinds and the informers they
// watch); it runs the operator's Scenario.Setup on a recording manager
// (Run, internal/recmgr) and adds the controllers it built (Controllers);
// and it reads the kinds the manager reads uncached (Uncached), the For
// kinds with status.observedGeneration (ObservedGeneration) and the
// Scenario.Records (Records). The root's setupState keeps what it
// returns, with the scenario itself and the invariants Options.Disable
// turns off.
//
// It imports of the explorer's module only internal/informers (an
// informer's key), internal/judge (its Record), internal/recmgr and
// internal/served (imports_test.go in the explorer's folder checks it).
package setup
