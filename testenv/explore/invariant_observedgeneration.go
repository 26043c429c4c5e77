package explore

import (
	"github.com/statuspatch/statuspatch/testenv/explore/internal/book"

	"fmt"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
)

// invObservedGeneration: at each write, status.observedGeneration never goes
// backwards nor passes metadata.generation.
var invObservedGeneration = invariant{
	name:    InvariantObservedGeneration,
	onWrite: (*checks).checkObservedGeneration,
}

// ogField is the field the observedGeneration invariants are about.
var ogField = []string{"status.observedGeneration"}

// checkObservedGeneration checks h's newest version, which replaced prev.
func (c *checks) checkObservedGeneration(h *book.History, prev map[string]any) {
	v := h.Newest()
	cur := h.Versions[v]
	if prev != nil && cur != nil {
		og, okNew, _ := unstructured.NestedInt64(cur, "status", "observedGeneration")
		old, okOld, _ := unstructured.NestedInt64(prev, "status", "observedGeneration")
		if okNew && okOld && og < old {
			c.trace.failOn(InvariantObservedGeneration, failDetail{object: h.Key.String(), fields: ogField}, fmt.Sprintf("%s: status.observedGeneration went backwards from %d to %d (v%d)%s", h.Key, old, og, v+1, c.trace.writeNote()))
		}
	}
	if cur != nil {
		og, ok, _ := unstructured.NestedInt64(cur, "status", "observedGeneration")
		gen, _, _ := unstructured.NestedInt64(cur, "metadata", "generation")
		if ok && og > gen {
			c.trace.failOn(InvariantObservedGeneration, failDetail{object: h.Key.String(), fields: ogField}, fmt.Sprintf("%s: status.observedGeneration %d passes generation %d (v%d)%s", h.Key, og, gen, v+1, c.trace.writeNote()))
		}
	}
}
