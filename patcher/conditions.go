package patcher

import (
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"

	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

const (
	// MaxConditionMessageLength is the longest condition message the API
	// server stores, in characters (Unicode code points): the schema
	// controller-gen writes for metav1.Condition has message maxLength
	// 32768, and a schema's maxLength counts characters, not bytes.
	MaxConditionMessageLength = 32768

	// MaxConditionMessageBytes is MaxConditionMessageLength.
	//
	// Deprecated: the server's limit counts characters, not bytes (a
	// message of 20000 "é" is 40000 bytes, and stored); use
	// MaxConditionMessageLength.
	MaxConditionMessageBytes = MaxConditionMessageLength
)

// truncatedMark ends a condition message that SetCondition cut to fit.
const truncatedMark = " ... [truncated]"

// ErrInvalidCondition matches (errors.Is) the error Flush returns, before
// sending anything, when a condition it would write breaks a rule the API
// server enforces on metav1.Condition (type, status, reason, message length,
// lastTransitionTime, observedGeneration): the server would refuse the whole
// status write with a 422. Only conditions the caller changed are judged
// (docs/patcher.md, "Invalid conditions").
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
// than MaxConditionMessageLength characters is cut to fit, keeping its start
// and ending with " ... [truncated]". It reports whether conditions changed.
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

// truncateMessage cuts msg to MaxConditionMessageLength characters, on a
// rune boundary.
func truncateMessage(msg string) string {
	if len(msg) <= MaxConditionMessageLength || utf8.RuneCountInString(msg) <= MaxConditionMessageLength {
		return msg
	}
	cut := 0
	for range MaxConditionMessageLength - utf8.RuneCountInString(truncatedMark) {
		_, size := utf8.DecodeRuneInString(msg[cut:])
		cut += size
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
