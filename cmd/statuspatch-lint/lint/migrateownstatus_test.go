package lint_test

import (
	"testing"

	"github.com/statuspatch/statuspatch/cmd/statuspatch-lint/lint"
	"golang.org/x/tools/go/analysis/analysistest"
)

// Issue 80 (R's fault 5 of s103): a reconciler embedding the client with
// its own Status() method. At 2ca18b7d -fix made the patcher with
// r.Client, and the write no longer went through r.Status() (its field
// owner, its counter). Now a write through a method the reconciler
// declares itself (its method set's path, not the embedded client's)
// stays, naming the method and its line; r.Client.Status() and a
// reconciler without its own Status move.
func TestMigrateOwnStatusMethod(t *testing.T) {
	analysistest.RunWithSuggestedFixes(t, analysistest.TestData(),
		lint.NewAnalyzer(lint.Config{Patchers: opPatchers}), "example.com/op/controllers/migrateownstatus")
}
