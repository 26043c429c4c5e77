package lint_test

import (
	"testing"

	"github.com/statuspatch/statuspatch/cmd/statuspatch-lint/lint"
	"golang.org/x/tools/go/analysis/analysistest"
)

// Issue 80, helper RF's attacks on the calls -fix makes once
// (migrateretryonce.go): name collisions, two calls of one method, a
// result used twice or of two values, a generic method, a receiver's
// field, arguments, a defer, a goto, a named error, sync shadowed or
// imported under another name, a file with a build tag.
func TestAdvOnce(t *testing.T) {
	analysistest.RunWithSuggestedFixes(t, analysistest.TestData(),
		lint.NewAnalyzer(lint.Config{Patchers: opPatchers, TestRefs: "example.com/op/controllers/advonce="}), "example.com/op/controllers/advonce")
}

// A package-level sync in another file: the decision's file cannot
// import sync, and the write stays, naming why.
func TestAdvOncePackageSync(t *testing.T) {
	analysistest.RunWithSuggestedFixes(t, analysistest.TestData(),
		lint.NewAnalyzer(lint.Config{Patchers: opPatchers}), "example.com/op/controllers/advonce2")
}
