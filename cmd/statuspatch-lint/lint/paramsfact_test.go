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
