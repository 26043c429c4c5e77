package controller

import (
	"testing"

	"k8s.io/client-go/kubernetes/scheme"
	"sigs.k8s.io/controller-runtime/pkg/envtest"
)

// TestSuite stands in for a kubebuilder scaffold's envtest suite
// (suite_test.go): what it imports is what it adds to go.mod.
func TestSuite(t *testing.T) { _, _ = &envtest.Environment{}, scheme.Scheme }
