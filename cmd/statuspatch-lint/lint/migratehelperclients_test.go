package lint_test

import (
	"testing"

	"github.com/statuspatch/statuspatch/cmd/statuspatch-lint/lint"
	"golang.org/x/tools/go/analysis/analysistest"
)

// The status helpers one caller hands its object to take its one patcher,
// which writes through one client: r and r.Client (embedded) move onto one
// declaration; r.Remote beside r.Client, across two helpers or in the two
// calls of one, keep the writes, saying so (migratehelperclients.go.golden).
func TestMigrateHelperClients(t *testing.T) {
	analysistest.RunWithSuggestedFixes(t, analysistest.TestData(), lint.NewAnalyzer(lint.Config{Patchers: opPatchers, TestRefs: "example.com/op/controllers/migratehelperclients="}),
		"example.com/op/controllers/migratehelperclients")
}
