package testapi_test

import (
	"slices"
	"testing"

	"github.com/statuspatch/statuspatch/testenv/internal/testapi"
)

func TestCRDs(t *testing.T) {
	crds := testapi.CRDs()
	var names []string
	for _, crd := range crds {
		names = append(names, crd.Name)
		if crd.Spec.Versions[0].Subresources == nil || crd.Spec.Versions[0].Subresources.Status == nil {
			t.Errorf("%s has no status subresource", crd.Name)
		}
	}
	want := []string{"gadgets.testing.statuspatch.dev", "gizmos.testing.statuspatch.dev", "widgets.testing.statuspatch.dev"}
	if !slices.Equal(names, want) {
		t.Fatalf("CRDs() = %v, want %v", names, want)
	}
}
