package lint_test

import (
	"testing"

	"github.com/statuspatch/statuspatch/cmd/statuspatch-lint/lint"
	"golang.org/x/tools/go/analysis/analysistest"
)

// A fresh kubebuilder v4.15.0 project's Reconcile as the deploy-image
// tutorial writes it (s114's newcomer): a status Update and the re-Get
// after it, a finalizer, a deferred closure writing a failure condition
// on a named error return, and a phase written with a merge patch. At
// 8b11e63b -fix panicked (reuseRoot asked of a write with no re-read,
// for a deferred literal's reason it then did not use), on the first
// run of the adopt block. All three writes move: the defer flushes the
// patcher of the read, re-fetched after the first Flush; the patch
// flushes one made at its base (tutorialdefer.go.golden).
func TestTutorialDefer(t *testing.T) {
	analysistest.RunWithSuggestedFixes(t, analysistest.TestData(),
		lint.NewAnalyzer(lint.Config{Patchers: opPatchers}), "example.com/op/controllers/tutorialdefer")
}
