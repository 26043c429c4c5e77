package explore

import (
	"github.com/statuspatch/statuspatch/testenv/explore/internal/book"

	"context"
	"fmt"
	"reflect"
	"strings"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// invObservedGenerationStuck: in a steady state, status.observedGeneration
// is below metadata.generation, or absent at generation 1 where the same
// schedule with fresh reads and no crash sets it (judged after the
// schedule, ownjudge.go).
var invObservedGenerationStuck = invariant{
	name: InvariantObservedGenerationStuck,
	onSteady: func(_ context.Context, r *run, _ int) {
		r.checks.checkObservedGenerationStuck(r.ex.setup.ogKinds, r.cache.stale > 0 || r.trace.crashes > 0 || r.held.delivered > 0)
	},
}

// checkObservedGenerationStuck checks that every observedGeneration
// caught up with its generation in a steady state (ogKinds: the kinds
// with the field). faulted: the schedule had a stale read, a crash or a
// write delivered late (not the same schedule with fresh reads and no
// crash).
func (c *checks) checkObservedGenerationStuck(ogKinds map[schema.GroupVersionKind]bool, faulted bool) {
	for _, k := range c.book.Keys() {
		h := c.book.History(k)
		cur := h.Versions[h.Newest()]
		if cur == nil {
			continue
		}
		og, ok, _ := unstructured.NestedInt64(cur, "status", "observedGeneration")
		gen, _, _ := unstructured.NestedInt64(cur, "metadata", "generation")
		if !ok && ogKinds[k.GVK] && gen > 1 {
			// A kind with the field, none set, after a spec change: the
			// status never acknowledged a generation.
			ok = true
		}
		if !ok && ogKinds[k.GVK] && gen == 1 && faulted && !deleting(cur) && !c.trace.disabled[InvariantObservedGenerationStuck] {
			// At generation 1 too, after the reconciles had their chance:
			// unless the operator does not set the field on this object
			// from fresh reads either (many kinds have it unused), which
			// the judgement after the schedule asks the same schedule with
			// fresh reads and no crash (ownjudge.go).
			msg := fmt.Sprintf("%s: status.observedGeneration absent at generation 1 in a steady state: the status never acknowledged a generation, "+
				"and no reconcile will; the same schedule with every read fresh and no crash sets it", k)
			c.ogSuspects = append(c.ogSuspects, ogSuspect{key: k, msg: msg})
			c.trace.failOn(InvariantObservedGenerationStuck, failDetail{object: k.String(), fields: ogField}, msg)
			return
		}
		if ok && og < gen {
			c.trace.failOn(InvariantObservedGenerationStuck, failDetail{object: k.String(), fields: ogField}, fmt.Sprintf("%s: status.observedGeneration stuck at %d below generation %d in a steady state", k, og, gen))
			return
		}
	}
}

// ogSuspect is an observedGeneration absent at generation 1 in a steady
// state, judged after the schedule: the object, and the violation's
// message.
type ogSuspect struct {
	key book.Key
	msg string
}

// deleting reports that version v is being deleted.
func deleting(v map[string]any) bool {
	_, ok, _ := unstructured.NestedString(v, "metadata", "deletionTimestamp")
	return ok
}

// setsObservedGeneration reports that k's newest version has a
// status.observedGeneration.
func (c *checks) setsObservedGeneration(k book.Key) bool {
	h := c.book.History(k)
	if h == nil || h.Versions[h.Newest()] == nil {
		return false
	}
	_, ok, _ := unstructured.NestedInt64(h.Versions[h.Newest()], "status", "observedGeneration")
	return ok
}

// hasObservedGeneration reports whether obj's Go type has a
// status.observedGeneration field: then an object of that kind without one
// has observed generation 0.
func hasObservedGeneration(obj client.Object) bool {
	t := reflect.TypeOf(obj)
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t.Kind() != reflect.Struct {
		return false
	}
	st, ok := t.FieldByName("Status")
	if !ok {
		return false
	}
	s := st.Type
	for s.Kind() == reflect.Pointer {
		s = s.Elem()
	}
	if s.Kind() != reflect.Struct {
		return false
	}
	for i := 0; i < s.NumField(); i++ {
		if name, _, _ := strings.Cut(s.Field(i).Tag.Get("json"), ","); name == "observedGeneration" {
			return true
		}
	}
	return false
}
