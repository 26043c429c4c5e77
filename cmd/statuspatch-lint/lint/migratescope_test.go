package lint_test

import (
	"testing"

	"github.com/statuspatch/statuspatch/cmd/statuspatch-lint/lint"
	"golang.org/x/tools/go/analysis/analysistest"
)

// Issue 80's third newcomer project (cluster-api's scope): an object read
// with Get into a field of a per-reconcile scope, s.Widget, and written by
// reconcileNormal and reconcileDelete through the scope stays, and its
// reason names the field and the Get that reads it (at ca5bcee: "w is not
// read with Get in this function before the write: ... make
// NewWidgetStatusPatcher there", no "there" named; "the object s.Widget is
// not a variable").
func TestMigrateScopeField(t *testing.T) {
	analysistest.Run(t, analysistest.TestData(),
		lint.NewAnalyzer(lint.Config{Patchers: opPatchers, TestRefs: "example.com/op/controllers/migratescope="}), "example.com/op/controllers/migratescope")
}
