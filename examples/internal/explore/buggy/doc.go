// Package buggy holds reconcilers with known interleaving bugs, for the
// explorer's proofs (testenv/explore). They are never run by the operator.
//
//   - FluxStyleReconciler writes its Ready condition the way Flux's patch
//     helper does: conditions under the optimistic lock, re-read through the
//     (lagging) cache on a conflict, the other status fields blind.
//   - CanaryReconciler acts on its own write without reading it back: a
//     Fleet's first reconcile creates a canary Rollout and records it in the
//     Fleet's status; a reconcile that reads the Fleet from a cache that has
//     not caught up with that write creates a second canary.
package buggy
