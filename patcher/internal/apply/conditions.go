package apply

import (
	"encoding/json"
	"reflect"
	"strconv"
	"strings"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/statuspatch/statuspatch/patcher/internal/wire"
)

// The []metav1.Condition lists of an applied status: where they are in the
// status type, and the fields meta.SetStatusCondition would fill.

// conditionsType is the Go type of a conditions list.
var conditionsType = reflect.TypeOf([]metav1.Condition(nil))

// ConditionLists finds every []metav1.Condition in the status type t, by
// dotted JSON path from dotted (list levels not marked), keyed by "type"
// as metav1.Condition's +listMapKey says, and adds them to out unless out
// has the path already.
func ConditionLists(t reflect.Type, dotted string, out map[string][]string) {
	conditionLists(t, dotted, out, 0)
}

func conditionLists(t reflect.Type, dotted string, out map[string][]string, depth int) {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if depth > 8 {
		return
	}
	switch {
	case t == conditionsType:
		if _, ok := out[dotted]; !ok {
			out[dotted] = []string{"type"}
		}
	case t.Kind() == reflect.Slice || t.Kind() == reflect.Array:
		conditionLists(t.Elem(), dotted, out, depth+1)
	case t.Kind() == reflect.Struct:
		for i := range t.NumField() {
			f := t.Field(i)
			name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
			switch {
			case name == "-" || (!f.IsExported() && !f.Anonymous):
			case f.Anonymous && name == "":
				conditionLists(f.Type, dotted, out, depth+1)
			default:
				conditionLists(f.Type, dotted+"."+wire.JSONName(f), out, depth+1)
			}
		}
	}
}

// WithoutNulls drops null members and items, in place: an apply's "unset".
func WithoutNulls(v any) any {
	switch x := v.(type) {
	case map[string]any:
		for k, c := range x {
			if c == nil {
				delete(x, k)
				continue
			}
			x[k] = WithoutNulls(c)
		}
	case []any:
		out := x[:0]
		for _, c := range x {
			if c != nil {
				out = append(out, WithoutNulls(c))
			}
		}
		return out
	}
	return v
}

// Conditions completes the conditions of an applied status.
type Conditions struct {
	Keys       map[string][]string // list-map keys by dotted path
	Paths      map[string]bool     // the dotted paths of []metav1.Condition lists
	Generation int64               // the base's metadata.generation
	Now        string              // lastTransitionTime of a new transition (RFC 3339)
}

// ChangedCondition is an applied condition that is not the base's: the
// condition guard must check it.
type ChangedCondition struct {
	Dotted string // the list's dotted path
	Cond   map[string]any
}

// Complete fills lastTransitionTime and observedGeneration of the
// conditions in v (at dotted) from base, the base's value at the same
// place, and appends to changed each condition that is not the base's.
func (cs Conditions) Complete(dotted string, v, base any, changed *[]ChangedCondition) {
	switch x := v.(type) {
	case map[string]any:
		bm, _ := base.(map[string]any)
		for k, c := range x {
			cs.Complete(dotted+"."+k, c, bm[k], changed)
		}
	case []any:
		keys, keyed := cs.Keys[dotted]
		bl, _ := base.([]any)
		for _, it := range x {
			var match any
			if pe, err := ItemKey(it, keys); keyed && err == nil {
				for _, b := range bl {
					if bpe, err := ItemKey(b, keys); err == nil && bpe.Equals(pe) {
						match = b
					}
				}
			}
			if c, ok := it.(map[string]any); ok && cs.Paths[dotted] {
				bc, _ := match.(map[string]any)
				cs.completeCondition(c, bc)
				if !reflect.DeepEqual(c, bc) {
					*changed = append(*changed, ChangedCondition{Dotted: dotted, Cond: c})
				}
				continue
			}
			cs.Complete(dotted, it, match, changed)
		}
	}
}

// completeCondition is meta.SetStatusCondition's rule for an applied
// condition c, whose base is b (nil: none).
func (cs Conditions) completeCondition(c, b map[string]any) {
	if t, ok := c["lastTransitionTime"].(string); !ok || t == "" {
		c["lastTransitionTime"] = cs.Now
		if b != nil && reflect.DeepEqual(b["status"], c["status"]) && b["lastTransitionTime"] != nil {
			c["lastTransitionTime"] = b["lastTransitionTime"]
		}
	}
	if _, ok := c["observedGeneration"]; !ok && cs.Generation > 0 {
		c["observedGeneration"] = json.Number(strconv.FormatInt(cs.Generation, 10)) // as decoded JSON numbers are
	}
}
