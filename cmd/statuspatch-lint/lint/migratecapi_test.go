package lint_test

import (
	"testing"

	"github.com/statuspatch/statuspatch/cmd/statuspatch-lint/lint"
	"golang.org/x/tools/go/analysis/analysistest"
)

// Issue 80's third newcomer project (cluster-api's patch helper): a
// status Patch in a method taking a client.Object, called from
// Reconcile's defer with the *Widget it read, stays, and its reason names
// the parameter, the call and what it passes (at ca5bcee: "obj is not a
// *Widget variable", naming neither).
func TestMigrateCAPIPatchHelper(t *testing.T) {
	analysistest.Run(t, analysistest.TestData(),
		lint.NewAnalyzer(lint.Config{Patchers: opPatchers, TestRefs: "example.com/op/controllers/migratecapi="}), "example.com/op/controllers/migratecapi")
}
