package lint_test

import (
	"testing"

	"github.com/statuspatch/statuspatch/lint"
	"golang.org/x/tools/go/analysis/analysistest"
)

func TestDefault(t *testing.T) {
	a := lint.NewAnalyzer(lint.Config{})
	analysistest.Run(t, analysistest.TestData(), a, "basic")
}

func TestAudit(t *testing.T) {
	a := lint.NewAnalyzer(lint.Config{Audit: true})
	analysistest.Run(t, analysistest.TestData(), a, "audit")
}

func TestGeneratedFilesExcluded(t *testing.T) {
	analysistest.Run(t, analysistest.TestData(), lint.NewAnalyzer(lint.Config{}), "generated")
	analysistest.Run(t, analysistest.TestData(), lint.NewAnalyzer(lint.Config{Audit: true}), "generated_audit")
}

func TestTestFiles(t *testing.T) {
	analysistest.Run(t, analysistest.TestData(), lint.NewAnalyzer(lint.Config{}), "testfiles_excluded")
	analysistest.Run(t, analysistest.TestData(), lint.NewAnalyzer(lint.Config{Tests: true}), "testfiles_included")
}

func TestPatchersAcrossPackages(t *testing.T) {
	analysistest.Run(t, analysistest.TestData(), lint.NewAnalyzer(lint.Config{}), "crosspkg")
}

// The runtime package and its subpackages write status by design.
func TestPatcherRuntimeExcluded(t *testing.T) {
	for _, audit := range []bool{false, true} {
		analysistest.Run(t, analysistest.TestData(), lint.NewAnalyzer(lint.Config{Audit: audit}),
			"github.com/statuspatch/statuspatch/patcher/...")
	}
}

// Patterns from a trial on cluster-api's controllers.
func TestRealWorldRegressions(t *testing.T) {
	analysistest.Run(t, analysistest.TestData(), lint.NewAnalyzer(lint.Config{Audit: true}), "capi")
}
