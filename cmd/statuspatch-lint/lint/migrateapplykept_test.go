package lint_test

import (
	"testing"

	"github.com/statuspatch/statuspatch/cmd/statuspatch-lint/lint"
	"golang.org/x/tools/go/analysis/analysistest"
)

// Issue 80: the server-side applies of trust-manager and
// template-operator that -fix keeps say the fact that keeps each, and the
// line, not that -fix does not read them.
func TestMigrateApplyKept(t *testing.T) {
	analysistest.Run(t, analysistest.TestData(), lint.NewAnalyzer(lint.Config{Patchers: opPatchers}), "example.com/op/controllers/migrateapplykept")
}

// Issue 80: trust-manager's apply of the bytes json.Marshal makes from an
// apply configuration moves as the configuration's apply
// (migrateapplybytes.go.golden), in place and in a helper whose caller
// reads the object; what keeps one is named.
func TestMigrateApplyBytes(t *testing.T) {
	analysistest.RunWithSuggestedFixes(t, analysistest.TestData(), lint.NewAnalyzer(lint.Config{Patchers: opPatchers, TestRefs: "example.com/op/controllers/migrateapplybytes="}), "example.com/op/ssautil", "example.com/op/controllers/migrateapplybytes")
}
