package patcher

import (
	"errors"
	"fmt"
	"reflect"
	"strings"
	"sync"
	"unicode/utf8"

	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	metav1validation "k8s.io/apimachinery/pkg/apis/meta/v1/validation"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

// MaxConditionMessageBytes is the longest condition message the API server
// stores (metav1.Condition's schema: maxLength 32768).
const MaxConditionMessageBytes = 32768

// truncatedMark ends a condition message that SetCondition cut to fit.
const truncatedMark = " ... [truncated]"

// ErrInvalidCondition matches (errors.Is) the error Flush returns, before
// sending anything, when a condition it would write breaks a rule the API
// server enforces on metav1.Condition (type, status, reason, message length,
// lastTransitionTime, observedGeneration): the server would refuse the whole
// status write with a 422.
var ErrInvalidCondition = errors.New("invalid condition")

// InvalidConditionError lists the condition rules a status write would
// break. It matches ErrInvalidCondition.
type InvalidConditionError struct {
	// Object identifies the object: "Kind namespace/name".
	Object string
	// Problems name each condition (by path and type) and the rule it breaks.
	Problems []string
}

func (e *InvalidConditionError) Error() string {
	return fmt.Sprintf("statuspatch: %s: %v, nothing was sent (the API server would refuse the whole status write): %s",
		e.Object, ErrInvalidCondition, strings.Join(e.Problems, "; "))
}

// Unwrap returns ErrInvalidCondition.
func (e *InvalidConditionError) Unwrap() error { return ErrInvalidCondition }

// SetCondition sets c in conditions with meta.SetStatusCondition, which keeps
// LastTransitionTime when the condition's status does not change. A zero
// ObservedGeneration is filled from obj's generation, and a message longer
// than MaxConditionMessageBytes is cut to fit, keeping its start and ending
// with " ... [truncated]". It reports whether conditions changed.
func SetCondition(obj metav1.Object, conditions *[]metav1.Condition, c metav1.Condition) (changed bool) {
	if conditions == nil {
		return false
	}
	if c.ObservedGeneration == 0 && !isNil(obj) {
		c.ObservedGeneration = obj.GetGeneration()
	}
	c.Message = truncateMessage(c.Message)
	return meta.SetStatusCondition(conditions, c)
}

// truncateMessage cuts msg to MaxConditionMessageBytes on a rune boundary.
func truncateMessage(msg string) string {
	if len(msg) <= MaxConditionMessageBytes {
		return msg
	}
	cut := MaxConditionMessageBytes - len(truncatedMark)
	for cut > 0 && !utf8.RuneStart(msg[cut]) {
		cut--
	}
	return msg[:cut] + truncatedMark
}

// MarkObserved sets *observedGeneration to obj's generation and reports
// whether it changed.
func MarkObserved(obj metav1.Object, observedGeneration *int64) (changed bool) {
	if isNil(obj) || observedGeneration == nil || *observedGeneration == obj.GetGeneration() {
		return false
	}
	*observedGeneration = obj.GetGeneration()
	return true
}

// invalidConditions validates, the way the API server does, every
// []metav1.Condition field of the status cur that differs from base's (a
// merge patch replaces such a list whole, so the server checks all of it).
func invalidConditions(cur, base any) []string {
	cv, bv := reflect.ValueOf(cur), reflect.ValueOf(base)
	var problems []string
	for _, f := range conditionFields(cv.Type()) {
		c, cok := f.get(cv)
		b, _ := f.get(bv)
		if !cok || reflect.DeepEqual(c, b) {
			continue
		}
		for _, e := range metav1validation.ValidateConditions(c, f.path) {
			problems = append(problems, describeConditionError(e, c))
		}
	}
	return problems
}

// describeConditionError names the condition's type beside the field path.
func describeConditionError(e *field.Error, conds []metav1.Condition) string {
	for i := range conds {
		if strings.HasPrefix(e.Field, fmt.Sprintf("%s[%d].", conditionListPath(e.Field), i)) && conds[i].Type != "" {
			return fmt.Sprintf("%s (condition type %q)", e.Error(), conds[i].Type)
		}
	}
	return e.Error()
}

func conditionListPath(fieldPath string) string {
	if i := strings.LastIndex(fieldPath, "["); i >= 0 {
		return fieldPath[:i]
	}
	return fieldPath
}

// conditionField is one []metav1.Condition field inside a status type.
type conditionField struct {
	index [][]int // field indexes from the status, one step per struct level
	path  *field.Path
}

// get returns the conditions at f in the status v (a pointer to the status
// struct, or to a pointer to it); false when a pointer on the way is nil.
func (f conditionField) get(v reflect.Value) ([]metav1.Condition, bool) {
	for v.Kind() == reflect.Pointer {
		if v.IsNil() {
			return nil, false
		}
		v = v.Elem()
	}
	for i, idx := range f.index {
		var err error
		if v, err = v.FieldByIndexErr(idx); err != nil {
			return nil, false // through a nil embedded pointer
		}
		if i < len(f.index)-1 {
			for v.Kind() == reflect.Pointer {
				if v.IsNil() {
					return nil, false
				}
				v = v.Elem()
			}
		}
	}
	return v.Interface().([]metav1.Condition), true
}

var (
	conditionType   = reflect.TypeOf([]metav1.Condition(nil))
	conditionFields = cachedConditionFields()
)

// cachedConditionFields finds, once per status type, the []metav1.Condition
// fields reachable through structs and pointers to structs.
func cachedConditionFields() func(reflect.Type) []conditionField {
	var cache sync.Map // reflect.Type -> []conditionField
	return func(t reflect.Type) []conditionField {
		if fs, ok := cache.Load(t); ok {
			return fs.([]conditionField)
		}
		var fs []conditionField
		findConditions(t, nil, field.NewPath("status"), map[reflect.Type]bool{}, &fs)
		cache.Store(t, fs)
		return fs
	}
}

func findConditions(t reflect.Type, index [][]int, path *field.Path, seen map[reflect.Type]bool, out *[]conditionField) {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t.Kind() != reflect.Struct || seen[t] {
		return
	}
	seen[t] = true
	defer delete(seen, t)
	for _, f := range reflect.VisibleFields(t) {
		if !f.IsExported() || f.Anonymous {
			continue
		}
		idx := append(append([][]int(nil), index...), f.Index)
		name := path.Child(jsonName(f))
		if f.Type == conditionType {
			*out = append(*out, conditionField{index: idx, path: name})
			continue
		}
		findConditions(f.Type, idx, name, seen, out)
	}
}
