package judge

import (
	"fmt"
	"reflect"
	"strings"

	"github.com/statuspatch/statuspatch/testenv/explore/internal/book"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

// ogField is the field the observedGeneration invariants are about.
var ogField = []string{"status.observedGeneration"}

// ObservedGeneration judges h's newest version, which replaced prev:
// status.observedGeneration never goes backwards nor passes
// metadata.generation. The explorer ends each message with the note
// naming the write.
func ObservedGeneration(h *book.History, prev map[string]any) []Failure {
	var out []Failure
	v := h.Newest()
	cur := h.Versions[v]
	if prev != nil && cur != nil {
		og, okNew, _ := unstructured.NestedInt64(cur, "status", "observedGeneration")
		old, okOld, _ := unstructured.NestedInt64(prev, "status", "observedGeneration")
		if okNew && okOld && og < old {
			out = append(out, Failure{Object: h.Key.String(), Fields: ogField, Message: fmt.Sprintf("%s: status.observedGeneration went backwards from %d to %d (v%d)", h.Key, old, og, v+1)})
		}
	}
	if cur != nil {
		og, ok, _ := unstructured.NestedInt64(cur, "status", "observedGeneration")
		gen, _, _ := unstructured.NestedInt64(cur, "metadata", "generation")
		if ok && og > gen {
			out = append(out, Failure{Object: h.Key.String(), Fields: ogField, Message: fmt.Sprintf("%s: status.observedGeneration %d passes generation %d (v%d)", h.Key, og, gen, v+1)})
		}
	}
	return out
}

// ObservedGenerationStuck judges a steady state: every
// observedGeneration caught up with its generation (ogKinds: the kinds
// with the field). faulted: the schedule had a stale read, a crash or a
// write delivered late (not the same schedule with fresh reads and no
// crash); atOne: the absence at generation 1 is judged (not disabled).
// suspect, when set, is an observedGeneration absent at generation 1,
// which the explorer judges again after the schedule against the same
// schedule with fresh reads and no crash.
func ObservedGenerationStuck(b *book.Book, ogKinds map[schema.GroupVersionKind]bool, faulted, atOne bool) (f Failure, suspect *book.Key, broke bool) {
	for _, k := range b.Keys() {
		h := b.History(k)
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
		if !ok && ogKinds[k.GVK] && gen == 1 && faulted && !Deleting(cur) && atOne {
			// At generation 1 too, after the reconciles had their chance:
			// unless the operator does not set the field on this object
			// from fresh reads either (many kinds have it unused), which
			// the judgement after the schedule asks the same schedule with
			// fresh reads and no crash.
			msg := fmt.Sprintf("%s: status.observedGeneration absent at generation 1 in a steady state: the status never acknowledged a generation, "+
				"and no reconcile will; the same schedule with every read fresh and no crash sets it", k)
			return Failure{Object: k.String(), Fields: ogField, Message: msg}, &k, true
		}
		if ok && og < gen {
			return Failure{Object: k.String(), Fields: ogField, Message: fmt.Sprintf("%s: status.observedGeneration stuck at %d below generation %d in a steady state", k, og, gen)}, nil, true
		}
	}
	return Failure{}, nil, false
}

// Deleting reports that version v is being deleted.
func Deleting(v map[string]any) bool {
	_, ok, _ := unstructured.NestedString(v, "metadata", "deletionTimestamp")
	return ok
}

// SetsObservedGeneration reports that k's newest version has a
// status.observedGeneration.
func SetsObservedGeneration(b *book.Book, k book.Key) bool {
	h := b.History(k)
	if h == nil || h.Versions[h.Newest()] == nil {
		return false
	}
	_, ok, _ := unstructured.NestedInt64(h.Versions[h.Newest()], "status", "observedGeneration")
	return ok
}

// HasObservedGeneration reports whether obj's Go type has a
// status.observedGeneration field: then an object of that kind without one
// has observed generation 0.
func HasObservedGeneration(obj any) bool {
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
