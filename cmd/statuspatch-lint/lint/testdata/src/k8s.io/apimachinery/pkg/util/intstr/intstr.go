// Package intstr is a minimal stub of k8s.io/apimachinery/pkg/util/intstr
// for analysistest.
package intstr

type IntOrString struct {
	Type   int
	IntVal int32
	StrVal string
}

// GetScaledValueFromIntOrPercent reads intOrPercent.
func GetScaledValueFromIntOrPercent(intOrPercent *IntOrString, total int, roundUp bool) (int, error) {
	return int(intOrPercent.IntVal), nil
}
