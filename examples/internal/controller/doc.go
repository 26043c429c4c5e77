// Package controller holds the example operator's reconcilers. Every status
// write goes through a generated <Kind>StatusPatcher:
//
//   - the finalizer is added and removed with the patcher's AddFinalizer and
//     RemoveFinalizer, which write metadata with the optimistic lock and move
//     the patcher's base, so the status write that follows in the same
//     reconcile does not conflict with the reconcile's own metadata write;
//   - decisions that depend on the current state (is there a plan yet? which
//     rollouts are members?) run inside Retry, which re-reads the object
//     through the manager's API reader on a conflict and decides again on
//     fresh state;
//   - plain progress (one more step done) is Flushed; a conflict requeues.
//
// Each reconciler's Client is made with patcher.ForManager(mgr, opts...)
// (NewRolloutReconciler and NewFleetReconciler do), which gives every
// patcher made from it the manager's API reader and the options it
// carries; the patcher calls take no options of their own.
//
// The blind baselines the contention proof compares against live in package
// blind and are not used by the operator.
package controller
