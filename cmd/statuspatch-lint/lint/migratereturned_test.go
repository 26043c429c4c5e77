package lint_test

import (
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/statuspatch/statuspatch/cmd/statuspatch-lint/lint"
)

// A reference into the object a function of the package returns, and
// calls through the function values of a package map (migratereturned):
// jobset's findFirstFailedPolicyRuleAndJob returns &rule of a range copy
// of the spec's rules, read by its caller and by the appliers of
// actionFunctionMap; kept at s89j ("whose address is taken at
// failure_policy.go:112"). A caller or an applier that writes through
// it, or a map whose values are not all the package's functions, keep
// the write, naming the line. options.go: a slice of the package's
// functions ranged over and called with the object (spark-operator's
// buildStartConnectServerArgs); assert.go: the object asserted to an
// interface, followed as the object (lws's
// setControllerReferenceWithStatefulSet).
func TestMigrateReturned(t *testing.T) {
	analysistest.RunWithSuggestedFixes(t, analysistest.TestData(),
		lint.NewAnalyzer(lint.Config{Patchers: opPatchers, NonStatusKept: true, TestRefs: "example.com/op/controllers/migratereturned="}),
		"example.com/op/controllers/migratereturned")
}

// A _test.go file of the package that sets a package map of functions
// does not keep a call through it: only the test binary runs the test's
// value. analysistest loads the package with its tests, as go vet does:
// the write moves there as it does without them.
func TestMigrateFuncValueSetInTestFile(t *testing.T) {
	analysistest.RunWithSuggestedFixes(t, analysistest.TestData(),
		lint.NewAnalyzer(lint.Config{Patchers: opPatchers, TestRefs: "example.com/op/controllers/migratefuncvaltests="}),
		"example.com/op/controllers/migratefuncvaltests")
}
