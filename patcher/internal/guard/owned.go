package guard

import (
	"reflect"
	"slices"
	"strings"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// The owned conditions of patcher.WithOwnedConditions: which condition
// changes are this writer's alone, and how they move onto a fresh read.

var conditionsType = reflect.TypeOf([]metav1.Condition(nil))

// ConditionsIndex finds the conditions field (a []metav1.Condition whose
// JSON name is "conditions") in the status type t (a pointer to the status
// struct, or a pointer to a pointer to it).
func ConditionsIndex(t reflect.Type) (int, bool) {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t.Kind() != reflect.Struct {
		return 0, false
	}
	for i := range t.NumField() {
		f := t.Field(i)
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if name == "conditions" && f.Type == conditionsType {
			return i, true
		}
	}
	return 0, false
}

// ConditionsOf returns the address of the conditions list of the status
// (a pointer to the status field), or nil when the status is a nil pointer
// or has no conditions field.
func ConditionsOf(status any) *[]metav1.Condition {
	v := reflect.ValueOf(status)
	for v.Kind() == reflect.Pointer {
		if v.IsNil() {
			return nil
		}
		v = v.Elem()
	}
	i, ok := ConditionsIndex(v.Type())
	if !ok {
		return nil
	}
	return v.Field(i).Addr().Interface().(*[]metav1.Condition)
}

// OwnedChanges lists, in order, the types whose condition differs between
// the lists base and cur (added, removed or changed); ok is false when one
// of them is not among owned: the changes are not all this writer's.
func OwnedChanges(owned []string, base, cur []metav1.Condition) (changed []string, ok bool) {
	changed = changedConditionTypes(base, cur)
	for _, t := range changed {
		if !slices.Contains(owned, t) {
			return nil, false
		}
	}
	return changed, true
}

// Reapply makes the conditions of the types changed in list (a fresh read)
// what they are in cur: set, replaced or removed. Other conditions stay as
// list holds them.
func Reapply(list *[]metav1.Condition, cur []metav1.Condition, changed []string) {
	for _, t := range changed {
		i := slices.IndexFunc(*list, func(c metav1.Condition) bool { return c.Type == t })
		j := slices.IndexFunc(cur, func(c metav1.Condition) bool { return c.Type == t })
		switch {
		case j < 0 && i >= 0:
			*list = slices.Delete(*list, i, i+1)
		case j >= 0 && i >= 0:
			(*list)[i] = cur[j]
		case j >= 0:
			*list = append(*list, cur[j])
		}
	}
}

// changedConditionTypes lists, in order, the types whose condition differs
// between the lists: added, removed or changed.
func changedConditionTypes(base, cur []metav1.Condition) []string {
	var out []string
	seen := map[string]bool{}
	for _, list := range [][]metav1.Condition{base, cur} {
		for _, c := range list {
			if seen[c.Type] {
				continue
			}
			seen[c.Type] = true
			b := slices.IndexFunc(base, func(x metav1.Condition) bool { return x.Type == c.Type })
			k := slices.IndexFunc(cur, func(x metav1.Condition) bool { return x.Type == c.Type })
			if b < 0 || k < 0 || !reflect.DeepEqual(base[b], cur[k]) {
				out = append(out, c.Type)
			}
		}
	}
	return out
}
