package lint_test

import (
	"testing"

	"github.com/statuspatch/statuspatch/cmd/statuspatch-lint/lint"
	"golang.org/x/tools/go/analysis/analysistest"
)

// Issue 80: a decision that calls a function of the package given ctx
// moves into Retry when the callee's body only reads (a logger, a List
// into its own local, recursion), and stays out of it, naming the
// callee's line, when the body writes to the cluster, records an event
// or sets its receiver's state; another package's function, whose body
// is not seen, keeps it too (oncectx.go.golden).
func TestOnceContextCallee(t *testing.T) {
	analysistest.RunWithSuggestedFixes(t, analysistest.TestData(),
		lint.NewAnalyzer(lint.Config{Patchers: opPatchers, TestRefs: "example.com/op/controllers/oncectx="}), "example.com/op/controllers/oncectx")
}
