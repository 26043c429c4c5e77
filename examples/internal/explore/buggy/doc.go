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
//   - DatabaseReconciler owns a StatefulSet and recreates it when its UID
//     is not the one recorded in the Database's status (the two-reconcile
//     recreate pattern), deciding from the cache: a reconcile that reads
//     the Database before its own status write reached the cache deletes
//     the StatefulSet it has just created. It needs the full API
//     (testenv.WithFullAPI) for StatefulSets.
package buggy
