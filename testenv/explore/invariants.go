package explore

import (
	"fmt"
	"sort"
	"strings"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

// checkVersion runs the per-write invariants on h's newest version, which
// replaced prev: observedGeneration, and no lost write.
func (b *versions) checkVersion(h *history, prev map[string]any) {
	v := h.newest()
	cur := h.versions[v]
	if prev != nil && cur != nil {
		og, okNew, _ := unstructured.NestedInt64(cur, "status", "observedGeneration")
		old, okOld, _ := unstructured.NestedInt64(prev, "status", "observedGeneration")
		if okNew && okOld && og < old {
			b.trace.fail(InvariantObservedGeneration, fmt.Sprintf("%s: status.observedGeneration went backwards from %d to %d (v%d)", h.key, old, og, v+1))
		}
	}
	if cur != nil {
		og, ok, _ := unstructured.NestedInt64(cur, "status", "observedGeneration")
		gen, _, _ := unstructured.NestedInt64(cur, "metadata", "generation")
		if ok && og > gen {
			b.trace.fail(InvariantObservedGeneration, fmt.Sprintf("%s: status.observedGeneration %d passes generation %d (v%d)", h.key, og, gen, v+1))
		}
	}
	step := 0
	based := -1
	by := ""
	if b.trace.cur != nil {
		step = b.trace.cur.step.Index
		if seen, ok := b.trace.cur.seen[h.key]; ok {
			based = seen
		}
		if b.trace.cur.sentBy > 0 {
			// Judged by what the old leader had seen when it sent it.
			by = fmt.Sprintf(" (the old leader's write sent by step %d, in flight until now)", b.trace.cur.sentBy)
		}
	}
	lost := map[owner][]string{}
	// A create (prev absent) loses nothing: it succeeds only where the
	// object is gone, whoever deleted it. Nor does a delete (cur absent).
	// Nor does an apply that changes only what its own field manager's
	// earlier apply set, decided in the same reconcile at least as
	// informed: it restates that reconcile's newest decision (managed.go).
	overwrite := prev != nil && cur != nil
	// Fields are owned per object, not per name: a deletion ends the
	// object and what anyone wrote on it. A write to an object created
	// again under the name loses only what was written on the new object
	// (its create or a later write), whatever the writer saw of the old
	// one. A new UID without a recorded absence is a create (record
	// inserts that absence: the deletion and the create between two
	// records).
	if cur == nil {
		h.owners = map[string]owner{}
		return
	}
	if overwrite && uidOfVersion(prev) != uidOfVersion(cur) {
		h.owners = map[string]owner{}
		overwrite = false
	}
	applied := b.applyDecision()
	for _, l := range changedLeaves(prev, cur) {
		p := l.dotted
		if o, ok := h.owners[p]; ok && overwrite && o.step > 0 && o.step != step && o.version > based &&
			!restated(o, applied, prev, cur, l.fields) {
			lost[o] = append(lost[o], p)
		}
		h.owners[p] = owner{version: v, step: step, applied: applied}
	}
	for _, o := range sortedOwners(lost) {
		paths := lost[o]
		sort.Strings(paths)
		b.trace.fail(InvariantLostWrite, fmt.Sprintf("%s: %s written by step %d (v%d) overwritten by step %d%s (v%d), which had seen only v%d",
			h.key, strings.Join(paths, ", "), o.step, o.version+1, step, by, v+1, based+1))
	}
}

// uidOfVersion is a recorded version's UID ("" when absent or unset).
func uidOfVersion(v map[string]any) string {
	uid, _, _ := unstructured.NestedString(v, "metadata", "uid")
	return uid
}

func sortedOwners(m map[owner][]string) []owner {
	out := make([]owner, 0, len(m))
	for o := range m {
		out = append(out, o)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].version < out[j].version })
	return out
}

// checkSteady runs the steady-state invariants: every observedGeneration
// caught up with its generation (ogKinds: the kinds with the field).
// faulted: the schedule had a stale read, a crash or a write delivered
// late (not the same schedule with fresh reads and no crash).
func (b *versions) checkSteady(ogKinds map[schema.GroupVersionKind]bool, faulted bool) {
	for _, k := range b.order {
		h := b.hist[k]
		cur := h.versions[h.newest()]
		if cur == nil {
			continue
		}
		og, ok, _ := unstructured.NestedInt64(cur, "status", "observedGeneration")
		gen, _, _ := unstructured.NestedInt64(cur, "metadata", "generation")
		if !ok && ogKinds[k.gvk] && gen > 1 {
			// A kind with the field, none set, after a spec change: the
			// status never acknowledged a generation.
			ok = true
		}
		if !ok && ogKinds[k.gvk] && gen == 1 && faulted && !deleting(cur) && !b.trace.disabled[InvariantObservedGenerationStuck] {
			// At generation 1 too, after the reconciles had their chance:
			// unless the operator does not set the field on this object
			// from fresh reads either (many kinds have it unused), which
			// the judgement after the schedule asks the same schedule with
			// fresh reads and no crash (ownjudge.go).
			msg := fmt.Sprintf("%s: status.observedGeneration absent at generation 1 in a steady state: the status never acknowledged a generation, "+
				"and no reconcile will; the same schedule with every read fresh and no crash sets it", k)
			b.ogSuspects = append(b.ogSuspects, ogSuspect{key: k, msg: msg})
			b.trace.fail(InvariantObservedGenerationStuck, msg)
			return
		}
		if ok && og < gen {
			b.trace.fail(InvariantObservedGenerationStuck, fmt.Sprintf("%s: status.observedGeneration stuck at %d below generation %d in a steady state", k, og, gen))
			return
		}
	}
}

// ogSuspect is an observedGeneration absent at generation 1 in a steady
// state, judged after the schedule: the object, and the violation's
// message.
type ogSuspect struct {
	key objKey
	msg string
}

// deleting reports that version v is being deleted.
func deleting(v map[string]any) bool {
	_, ok, _ := unstructured.NestedString(v, "metadata", "deletionTimestamp")
	return ok
}

// setsObservedGeneration reports that k's newest version has a
// status.observedGeneration.
func (b *versions) setsObservedGeneration(k objKey) bool {
	h := b.hist[k]
	if h == nil || h.versions[h.newest()] == nil {
		return false
	}
	_, ok, _ := unstructured.NestedInt64(h.versions[h.newest()], "status", "observedGeneration")
	return ok
}
