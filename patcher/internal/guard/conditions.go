package guard

import (
	"fmt"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"sync"
	"unicode/utf8"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/statuspatch/statuspatch/patcher/internal/wire"
)

// The condition guard (docs/patcher.md, "Invalid conditions"). A status is
// written in one PATCH, so one condition the server refuses fails the whole
// write with a 422. Flush checks the conditions it is about to write
// (and explains the server's 422 with what it finds; the server decides)
// against the schema controller-gen emits for metav1.Condition in
// every CRD (testenv/internal/testapi/crd, examples/config/crd), rule for
// rule, and nothing stricter:
//
//	type                required, maxLength 316, pattern conditionTypePattern
//	status              required, enum True, False, Unknown
//	observedGeneration  minimum 0
//	lastTransitionTime  required (a zero metav1.Time marshals as null)
//	reason              required, minLength 1, maxLength 1024, pattern conditionReasonPattern
//	message             required, maxLength 32768
//
// A schema's maxLength counts characters (Unicode code points), not bytes.
// Whether two conditions may share a type depends on the list's
// x-kubernetes-list-type, which the Go type does not carry at run time, so
// merge mode leaves duplicates to the server; apply mode keys every
// condition list by type and refuses them (keyedError, patcher/writer_apply.go).
// Only conditions the caller changed are judged: a condition equal to one
// in the base, in the same list or in any list at the same place of the
// schema (another item's), is the server's own, stored under whatever
// schema it had then.

const (
	maxConditionTypeLength   = 316
	maxConditionReasonLength = 1024

	// MaxConditionMessageLength is patcher.MaxConditionMessageLength (the
	// public home of the fact: message maxLength 32768, in characters);
	// patcher's tests check that the two agree.
	MaxConditionMessageLength = 32768
)

var (
	conditionTypePattern   = regexp.MustCompile(`^([a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*/)?(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])$`)
	conditionReasonPattern = regexp.MustCompile(`^[A-Za-z]([A-Za-z0-9_,:]*[A-Za-z0-9_])?$`)
	conditionStatuses      = []metav1.ConditionStatus{metav1.ConditionTrue, metav1.ConditionFalse, metav1.ConditionUnknown}
)

// InvalidConditions lists what the server would refuse among the
// conditions of the status cur that the caller changed since base (both
// pointers to the status field). It looks at every []metav1.Condition at any
// depth: struct fields, pointers, list items and map values.
func InvalidConditions(cur, base any) []string {
	cv, bv := reflect.ValueOf(cur), reflect.ValueOf(base)
	plan := conditionPlanFor(cv.Type())
	if plan == nil {
		return nil
	}
	var problems []string
	var stored map[string]map[conditionKey]bool // base conditions by schema path, made when needed
	plan.walk(cv, bv, field.NewPath("status"), "status", func(path *field.Path, schema string, list, baseList []metav1.Condition) {
		if sameConditions(list, baseList) {
			return
		}
		for i := range list {
			c := &list[i]
			if slices.ContainsFunc(baseList, func(b metav1.Condition) bool { return sameCondition(&b, c) }) {
				continue
			}
			if stored == nil {
				stored = plan.conditionsBySchema(bv)
			}
			if stored[schema][keyOfCondition(c)] {
				continue
			}
			problems = append(problems, ConditionProblems(c, path.Index(i))...)
		}
	})
	return problems
}

// ConditionProblems checks one condition against metav1.Condition's schema,
// naming the rule and the condition's type.
func ConditionProblems(c *metav1.Condition, path *field.Path) []string {
	var out []string
	add := func(child, format string, args ...any) {
		msg := path.Child(child).String() + ": " + fmt.Sprintf(format, args...)
		if c.Type != "" && child != "type" {
			msg += fmt.Sprintf(" (condition type %q)", c.Type)
		}
		out = append(out, msg)
	}
	switch n := utf8.RuneCountInString(c.Type); {
	case n == 0:
		add("type", "Required value")
	case n > maxConditionTypeLength:
		add("type", "Too long: %d characters, at most %d", n, maxConditionTypeLength)
	case !conditionTypePattern.MatchString(c.Type):
		add("type", "Invalid value: %q: must be a name (letters, digits, '-', '_', '.'; a letter or digit at each end), "+
			"optionally after a lower-case DNS subdomain and '/'", shorten(c.Type))
	}
	if !slices.Contains(conditionStatuses, c.Status) {
		add("status", `Unsupported value: %q: supported values: "True", "False", "Unknown"`, shorten(string(c.Status)))
	}
	if c.ObservedGeneration < 0 {
		add("observedGeneration", "Invalid value: %d: must be greater than or equal to 0", c.ObservedGeneration)
	}
	if c.LastTransitionTime.IsZero() {
		add("lastTransitionTime", "Required value: must be set")
	}
	switch n := utf8.RuneCountInString(c.Reason); {
	case n == 0:
		add("reason", "Required value: must be set")
	case n > maxConditionReasonLength:
		add("reason", "Too long: %d characters, at most %d", n, maxConditionReasonLength)
	case !conditionReasonPattern.MatchString(c.Reason):
		add("reason", "Invalid value: %q: must start with a letter, hold only letters, digits, '_', ',' and ':', "+
			"and end with a letter, digit or '_'", shorten(c.Reason))
	}
	if n := utf8.RuneCountInString(c.Message); n > MaxConditionMessageLength {
		add("message", "Too long: %d characters, at most %d", n, MaxConditionMessageLength)
	}
	return out
}

// shorten keeps an error readable when the value is long.
func shorten(s string) string {
	if utf8.RuneCountInString(s) <= 80 {
		return s
	}
	return string([]rune(s)[:77]) + "..."
}

// sameCondition reports whether a and b marshal alike: the time is written
// in whole seconds.
func sameCondition(a, b *metav1.Condition) bool {
	return a.Type == b.Type && a.Status == b.Status && a.ObservedGeneration == b.ObservedGeneration &&
		a.Reason == b.Reason && a.Message == b.Message &&
		a.LastTransitionTime.IsZero() == b.LastTransitionTime.IsZero() &&
		a.LastTransitionTime.Unix() == b.LastTransitionTime.Unix()
}

func sameConditions(a, b []metav1.Condition) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if !sameCondition(&a[i], &b[i]) {
			return false
		}
	}
	return true
}

// conditionKey is a condition as it marshals, to find it in a set.
type conditionKey struct {
	typ, status, reason, message string
	generation, transition       int64
	zeroTime                     bool
}

func keyOfCondition(c *metav1.Condition) conditionKey {
	return conditionKey{typ: c.Type, status: string(c.Status), reason: c.Reason, message: c.Message,
		generation: c.ObservedGeneration, transition: c.LastTransitionTime.Unix(), zeroTime: c.LastTransitionTime.IsZero()}
}

// conditionPlan says where, inside one status type, []metav1.Condition
// lists can be: has holds every type reachable from the status that
// contains one at some depth, fields the struct fields worth visiting.
type conditionPlan struct {
	has    map[reflect.Type]bool
	fields map[reflect.Type][]planField
}

// planField is one struct field on the way to conditions; inline for an
// embedded struct, whose fields encoding/json lifts into the parent.
type planField struct {
	index  int
	name   string
	inline bool
}

var (
	conditionListType = reflect.TypeOf([]metav1.Condition(nil))
	conditionType     = conditionListType.Elem()
	conditionPlans    sync.Map // reflect.Type -> *conditionPlan (nil: no conditions)
)

// conditionPlanFor returns the plan of the status type t (a pointer to the
// status), or nil when the status holds no conditions anywhere.
func conditionPlanFor(t reflect.Type) *conditionPlan {
	if p, ok := conditionPlans.Load(t); ok {
		return p.(*conditionPlan)
	}
	p := newConditionPlan(t)
	conditionPlans.Store(t, p)
	return p
}

func newConditionPlan(root reflect.Type) *conditionPlan {
	edges := map[reflect.Type][]reflect.Type{}
	fields := map[reflect.Type][]planField{}
	var visit func(t reflect.Type)
	visit = func(t reflect.Type) {
		if _, seen := edges[t]; seen || isConditionList(t) {
			return
		}
		edges[t] = []reflect.Type{}
		switch t.Kind() {
		case reflect.Pointer, reflect.Slice, reflect.Array, reflect.Map:
			edges[t] = append(edges[t], t.Elem())
			visit(t.Elem())
		case reflect.Struct:
			for i := range t.NumField() {
				f := t.Field(i)
				name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
				inline := f.Anonymous && name == "" && isStruct(f.Type)
				if name == "-" || (!f.IsExported() && !inline) {
					continue
				}
				fields[t] = append(fields[t], planField{index: i, name: wire.JSONName(f), inline: inline})
				edges[t] = append(edges[t], f.Type)
				visit(f.Type)
			}
		}
	}
	visit(root)
	has := map[reflect.Type]bool{}
	for changed := true; changed; {
		changed = false
		for t, next := range edges {
			if !has[t] && slices.ContainsFunc(next, func(n reflect.Type) bool { return has[n] || isConditionList(n) }) {
				has[t], changed = true, true
			}
		}
	}
	if !has[root] && !isConditionList(root) {
		return nil
	}
	for t, fs := range fields {
		fields[t] = slices.DeleteFunc(fs, func(f planField) bool {
			ft := t.Field(f.index).Type
			return !has[ft] && !isConditionList(ft)
		})
	}
	return &conditionPlan{has: has, fields: fields}
}

// isConditionList reports whether t is []metav1.Condition, or a named type
// of it.
func isConditionList(t reflect.Type) bool {
	return t.Kind() == reflect.Slice && t.Elem() == conditionType
}

// conditionList returns the conditions v holds.
func conditionList(v reflect.Value) []metav1.Condition {
	if !v.IsValid() {
		return nil
	}
	return v.Convert(conditionListType).Interface().([]metav1.Condition)
}

// walk calls visit for every condition list in cur, with the list at the
// same path in base (nil when base has none there), its path, and its
// schema path, where list items and map values are "[*]".
func (p *conditionPlan) walk(cur, base reflect.Value, path *field.Path, schema string,
	visit func(path *field.Path, schema string, list, baseList []metav1.Condition)) {
	t := cur.Type()
	if isConditionList(t) {
		visit(path, schema, conditionList(cur), conditionList(base))
		return
	}
	if !p.has[t] {
		return
	}
	switch cur.Kind() {
	case reflect.Pointer:
		if cur.IsNil() {
			return
		}
		if base.IsValid() && base.IsNil() {
			base = reflect.Value{}
		}
		p.walk(cur.Elem(), elem(base), path, schema, visit)
	case reflect.Struct:
		for _, f := range p.fields[t] {
			b := reflect.Value{}
			if base.IsValid() {
				b = base.Field(f.index)
			}
			if f.inline {
				p.walk(cur.Field(f.index), b, path, schema, visit)
			} else {
				p.walk(cur.Field(f.index), b, path.Child(f.name), schema+"."+f.name, visit)
			}
		}
	case reflect.Slice, reflect.Array:
		for i := range cur.Len() {
			b := reflect.Value{}
			if base.IsValid() && i < base.Len() {
				b = base.Index(i)
			}
			p.walk(cur.Index(i), b, path.Index(i), schema+"[*]", visit)
		}
	case reflect.Map:
		keys := cur.MapKeys()
		slices.SortFunc(keys, func(a, b reflect.Value) int { return strings.Compare(fmt.Sprint(a), fmt.Sprint(b)) })
		for _, k := range keys {
			b := reflect.Value{}
			if base.IsValid() {
				b = base.MapIndex(k)
			}
			p.walk(cur.MapIndex(k), b, path.Key(fmt.Sprint(k)), schema+"[*]", visit)
		}
	}
}

func elem(v reflect.Value) reflect.Value {
	if !v.IsValid() {
		return v
	}
	return v.Elem()
}

// conditionsBySchema collects the conditions of the status base by schema
// path.
func (p *conditionPlan) conditionsBySchema(base reflect.Value) map[string]map[conditionKey]bool {
	out := map[string]map[conditionKey]bool{}
	p.walk(base, reflect.Value{}, field.NewPath("status"), "status", func(_ *field.Path, schema string, list, _ []metav1.Condition) {
		set := out[schema]
		if set == nil {
			set = map[conditionKey]bool{}
			out[schema] = set
		}
		for i := range list {
			set[keyOfCondition(&list[i])] = true
		}
	})
	return out
}

// isStruct reports whether t is a struct or a pointer to one.
func isStruct(t reflect.Type) bool {
	if t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	return t.Kind() == reflect.Struct
}
