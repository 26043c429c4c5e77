// Package meta is a stub of k8s.io/apimachinery/pkg/api/meta's condition
// helpers.
package meta

import metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

func SetStatusCondition(conditions *[]metav1.Condition, newCondition metav1.Condition) bool {
	*conditions = append(*conditions, newCondition)
	return true
}

func FindStatusCondition(conditions []metav1.Condition, conditionType string) *metav1.Condition {
	for i := range conditions {
		if conditions[i].Type == conditionType {
			return &conditions[i]
		}
	}
	return nil
}

func IsStatusConditionTrue(conditions []metav1.Condition, conditionType string) bool {
	c := FindStatusCondition(conditions, conditionType)
	return c != nil && c.Status == "True"
}
