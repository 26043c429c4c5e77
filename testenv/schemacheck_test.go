package testenv_test

import (
	"errors"
	"strings"
	"testing"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"

	"github.com/statuspatch/statuspatch/testenv"
	"github.com/statuspatch/statuspatch/testenv/internal/testapi"
)

func TestCheckStatusSchemaPassesOnGeneratedCRDs(t *testing.T) {
	if err := testenv.CheckStatusSchema(testScheme(t), testapi.CRDs()...); err != nil {
		t.Fatalf("the generated CRDs match their Go types, but: %v", err)
	}
}

// A CRD older than the Go type: status.plan (a struct) and a condition's
// reason are missing from the schema.
func TestCheckStatusSchemaNamesMissingPaths(t *testing.T) {
	crds := testapi.CRDs()
	for _, crd := range crds {
		if crd.Spec.Names.Kind != "Widget" {
			continue
		}
		status := crd.Spec.Versions[0].Schema.OpenAPIV3Schema.Properties["status"]
		delete(status.Properties, "plan")
		conds := status.Properties["conditions"]
		delete(conds.Items.Schema.Properties, "reason")
		status.Properties["conditions"] = conds
		crd.Spec.Versions[0].Schema.OpenAPIV3Schema.Properties["status"] = status
	}
	err := testenv.CheckStatusSchema(testScheme(t), crds...)
	var drift *testenv.SchemaDriftError
	if !errors.As(err, &drift) {
		t.Fatalf("CheckStatusSchema = %v, want a *SchemaDriftError", err)
	}
	got := strings.Join(drift.Missing["Widget testing.statuspatch.dev/v1"], ",")
	if got != "status.conditions[].reason,status.plan" {
		t.Fatalf("missing paths = %q (%v)", got, err)
	}
	if _, ok := drift.Missing["Gadget testing.statuspatch.dev/v1"]; ok {
		t.Fatal("the untouched Gadget CRD was reported")
	}
}

// A schema without status whose root keeps unknown fields
// (x-kubernetes-preserve-unknown-fields, Katib's CRDs) prunes nothing of
// the status: no drift. Without that mark, status is missing.
func TestCheckStatusSchemaRootPreservesUnknown(t *testing.T) {
	crds := testapi.CRDs()
	var widget *apiextensionsv1.JSONSchemaProps
	for _, crd := range crds {
		if crd.Spec.Names.Kind == "Widget" {
			widget = crd.Spec.Versions[0].Schema.OpenAPIV3Schema
			delete(widget.Properties, "status")
			preserve := true
			widget.XPreserveUnknownFields = &preserve
		}
	}
	if err := testenv.CheckStatusSchema(testScheme(t), crds...); err != nil {
		t.Fatalf("a root that preserves unknown fields prunes no status, but: %v", err)
	}
	widget.XPreserveUnknownFields = nil
	var drift *testenv.SchemaDriftError
	if err := testenv.CheckStatusSchema(testScheme(t), crds...); !errors.As(err, &drift) || strings.Join(drift.Missing["Widget testing.statuspatch.dev/v1"], ",") != "status" {
		t.Fatalf("without the mark: want status missing, got %v", err)
	}
}

// Start refuses a drifted CRD before anything starts, unless told not to.
func TestStartRefusesADriftedCRD(t *testing.T) {
	crds := testapi.CRDs()
	for _, crd := range crds {
		if crd.Spec.Names.Kind == "Widget" {
			delete(crd.Spec.Versions[0].Schema.OpenAPIV3Schema.Properties["status"].Properties, "plan")
		}
	}
	_, stop, err := testenv.StartServer(t.Context(), testenv.WithCRDs(crds...), testenv.WithScheme(testScheme(t)))
	if err == nil {
		stop()
		t.Fatal("a CRD lacking status.plan started")
	}
	if !strings.Contains(err.Error(), "status.plan") || !strings.Contains(err.Error(), "WithoutStatusSchemaCheck") {
		t.Fatalf("error %q does not name the missing path and the way out", err)
	}
}
