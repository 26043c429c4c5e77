package lint_test

import (
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/statuspatch/statuspatch/cmd/statuspatch-lint/lint"
)

// A range over a literal of function values, method values of the
// package among them (issue 80: a newcomer's phases, for _, phase :=
// range []func(*fleetv1.Dock) bool{r.open, r.ready}), each followed as
// its body; so is a local of it, a map of them, and a call of a method
// of the package returning such a literal (range r.phases()). An element
// that changes the spec or is a parameter, or a method returning other
// than a literal, keeps the write, naming the line.
func TestMigrateFuncValueRangeLiteral(t *testing.T) {
	analysistest.RunWithSuggestedFixes(t, analysistest.TestData(),
		lint.NewAnalyzer(lint.Config{Patchers: opPatchers, NonStatusKept: true, TestRefs: "example.com/op/controllers/migratefuncvalrange="}),
		"example.com/op/controllers/migratefuncvalrange")
}
