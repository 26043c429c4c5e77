package lint_test

import (
	"testing"

	"github.com/statuspatch/statuspatch/cmd/statuspatch-lint/lint"
	"golang.org/x/tools/go/analysis/analysistest"
)

// A function that encodes an object with unstructured.UnstructuredJSONScheme
// and patches the encoding with its type as the schema (lws's
// revision.ApplyRevision) only reads it: its ParamsFact says so, unless
// encoding/json may call a method that changes the object.
func TestParamsFactEncodedObject(t *testing.T) {
	analysistest.Run(t, analysistest.TestData(), lint.NewAnalyzer(lint.Config{}), "example.com/op/revutil")
}

// A function of another package that only reads a reference it is given
// (lws's ComputeRevision: each role copied by range value into a literal
// only json.Marshal reads) has a readOnly fact for it; one that writes
// through the range value, hands the literal to a function value or
// stores it has none.
func TestParamsFactReadOnlyReferences(t *testing.T) {
	analysistest.Run(t, analysistest.TestData(), lint.NewAnalyzer(lint.Config{}), "example.com/op/rolesutil")
	// A package that does not reach metav1 has no fact (the export-data
	// driver reads it from export data).
	analysistest.Run(t, analysistest.TestData(), lint.NewAnalyzer(lint.Config{}), "example.com/op/plainutil")
}

// A parameter that holds an object in a field (karpenter's events.Event,
// or a ...Event) has a fact of what the function does with what it holds
// there: only read (client-go's event recorder is given it), or more (kept
// in a field another method hands out, given to a function value).
func TestParamsFactHeldParams(t *testing.T) {
	analysistest.Run(t, analysistest.TestData(), lint.NewAnalyzer(lint.Config{}), "example.com/op/eventsutil")
}
