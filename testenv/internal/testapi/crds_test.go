package testapi_test

import (
	"testing"

	"github.com/statuspatch/statuspatch/testenv/internal/testapi"
)

func TestCRDs(t *testing.T) {
	crds := testapi.CRDs()
	if len(crds) != 2 || crds[0].Name != "gadgets.testing.statuspatch.dev" || crds[1].Name != "widgets.testing.statuspatch.dev" {
		t.Fatalf("CRDs() = %d CRDs", len(crds))
	}
	if crds[1].Spec.Versions[0].Subresources == nil || crds[1].Spec.Versions[0].Subresources.Status == nil {
		t.Fatal("widget CRD has no status subresource")
	}
}
