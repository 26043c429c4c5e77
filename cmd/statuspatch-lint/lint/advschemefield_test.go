package lint_test

import (
	"testing"

	"github.com/statuspatch/statuspatch/cmd/statuspatch-lint/lint"
	"golang.org/x/tools/go/analysis/analysistest"
)

// Issue 80, helper T's gap 1: kubebuilder's Scheme field beside the
// embedded client.Client hides the client's Scheme method; at ae27bc6
// the final merge patch through it was not taken as a write of the
// object, so its decision was charged to the deferred write and all
// three writes kept ("fixed 0, kept 3"; without the field, 3 moved).
func TestAdvSchemeField(t *testing.T) {
	analysistest.RunWithSuggestedFixes(t, analysistest.TestData(),
		lint.NewAnalyzer(lint.Config{Patchers: opPatchers}), "example.com/op/controllers/advschemefield")
}
