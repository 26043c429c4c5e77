package patcher

import (
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// SetCondition sets c in conditions with meta.SetStatusCondition, which keeps
// LastTransitionTime when the condition's status does not change. A zero
// ObservedGeneration is filled from obj's generation. It reports whether
// conditions changed.
func SetCondition(obj metav1.Object, conditions *[]metav1.Condition, c metav1.Condition) (changed bool) {
	if conditions == nil {
		return false
	}
	if c.ObservedGeneration == 0 && !isNil(obj) {
		c.ObservedGeneration = obj.GetGeneration()
	}
	return meta.SetStatusCondition(conditions, c)
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
