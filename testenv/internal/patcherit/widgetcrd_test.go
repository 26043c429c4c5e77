package patcherit_test

import (
	"testing"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"k8s.io/apimachinery/pkg/runtime"

	v1 "github.com/statuspatch/statuspatch/internal/testapi/v1"
	"github.com/statuspatch/statuspatch/testenv"
	"github.com/statuspatch/statuspatch/testenv/internal/testapi"
)

// widgetServer starts an API server for one test (stopped at its end)
// whose Widget CRD edit changes, the other CRDs as testapi has them; what
// names the server in a start error.
func widgetServer(t testing.TB, what string, edit func(crd *apiextensionsv1.CustomResourceDefinition)) *testenv.Env {
	t.Helper()
	var crds []*apiextensionsv1.CustomResourceDefinition
	for _, crd := range testapi.CRDs() {
		if crd.Spec.Names.Kind == "Widget" {
			edit(crd)
		}
		crds = append(crds, crd)
	}
	s := runtime.NewScheme()
	if err := v1.AddToScheme(s); err != nil {
		t.Fatal(err)
	}
	e, stop, err := testenv.StartServer(ctx, testenv.WithCRDs(crds...), testenv.WithScheme(s), testenv.WithoutStatusSchemaCheck())
	if err != nil {
		t.Fatalf("start %s API server: %v", what, err)
	}
	t.Cleanup(stop)
	return e
}

// widgetStatus edits the status schema of the CRD's first version.
func widgetStatus(crd *apiextensionsv1.CustomResourceDefinition, edit func(status *apiextensionsv1.JSONSchemaProps)) {
	schema := crd.Spec.Versions[0].Schema.OpenAPIV3Schema
	status := schema.Properties["status"]
	edit(&status)
	schema.Properties["status"] = status
}

// nestPlanDefaults gives status.plan the default {} and status.plan.id
// the default "p0": the server fills the outer default, then its field's
// (a nested default).
func nestPlanDefaults(crd *apiextensionsv1.CustomResourceDefinition) {
	widgetStatus(crd, func(status *apiextensionsv1.JSONSchemaProps) {
		plan := status.Properties["plan"]
		id := plan.Properties["id"]
		id.Default = &apiextensionsv1.JSON{Raw: []byte(`"p0"`)}
		plan.Properties["id"] = id
		plan.Default = &apiextensionsv1.JSON{Raw: []byte(`{}`)}
		status.Properties["plan"] = plan
	})
}

// storagePhaseDefault adds v2, a copy of the first version that is the
// storage version (conversion None) and alone defaults status.phase to
// "Pending": the server defaults what it decodes from etcd with it, then
// converts to v1, so a status stored without phase reads back Pending.
func storagePhaseDefault(crd *apiextensionsv1.CustomResourceDefinition) {
	served := crd.Spec.Versions[0]
	served.Storage = false
	stored := *served.DeepCopy()
	stored.Name, stored.Storage = "v2", true
	status := stored.Schema.OpenAPIV3Schema.Properties["status"]
	phase := status.Properties["phase"]
	phase.Default = &apiextensionsv1.JSON{Raw: []byte(`"Pending"`)}
	status.Properties["phase"] = phase
	stored.Schema.OpenAPIV3Schema.Properties["status"] = status
	crd.Spec.Versions = []apiextensionsv1.CustomResourceDefinitionVersion{served, stored}
}
