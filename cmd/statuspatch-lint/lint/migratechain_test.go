package lint_test

import (
	"testing"

	"github.com/statuspatch/statuspatch/cmd/statuspatch-lint/lint"
	"golang.org/x/tools/go/analysis/analysistest"
)

// A status helper reached through helpers that only hand the object on
// takes, with every function of the chain, the one patcher the chain's
// first caller makes after its Get: two deep, three deep, two chains
// from one caller; a chain with a caller that cannot make the patcher
// stays, naming that call (migratechain.go.golden).
func TestMigrateChain(t *testing.T) {
	analysistest.RunWithSuggestedFixes(t, analysistest.TestData(), lint.NewAnalyzer(lint.Config{Patchers: opPatchers, TestRefs: "example.com/op/controllers/migratechain="}),
		"example.com/op/controllers/migratechain")
}

// Two helpers of a package each called before the other: a Fix asked
// while the other's runs takes it as moving, and exports no fact from
// that assumption; the write of the exported one stays, and so does a
// caller's own write after it in another package (migratechaincycle).
func TestMigrateChainCycleFacts(t *testing.T) {
	analysistest.Run(t, analysistest.TestData(), lint.NewAnalyzer(lint.Config{Patchers: opPatchers, Module: true}),
		"example.com/op/controllers/migratechaincycle/status", "example.com/op/controllers/migratechaincycle/ctrl")
}

// A link of a chain that changes the object outside its status before
// handing it on to a status subresource write moves with the chain, every
// caller up it making the patcher with patcher.WithNonStatusChangesUnsent(),
// as a one-level helper's caller does; a change of identity keeps it
// (migratechainunsent.go.golden).
func TestMigrateChainUnsent(t *testing.T) {
	analysistest.RunWithSuggestedFixes(t, analysistest.TestData(), lint.NewAnalyzer(lint.Config{Patchers: opPatchers, TestRefs: "example.com/op/controllers/migratechainunsent="}),
		"example.com/op/controllers/migratechainunsent")
}
