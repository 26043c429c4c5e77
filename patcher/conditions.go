package patcher

import (
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
