package lint_test

import (
	"testing"

	"github.com/statuspatch/statuspatch/cmd/statuspatch-lint/lint"
	"golang.org/x/tools/go/analysis/analysistest"
)

// Review R3 of 1af7c67: a base older than a call that writes the object
// out of the arguments' sight (a literal capturing it, a method value,
// an interface's method given a context) gets no lock; the package's
// updating function given another object, and a helper given a client
// that only reads, leave the lock (fixlockcalls.go.golden).
func TestLockCallsOutOfSight(t *testing.T) {
	analysistest.RunWithSuggestedFixes(t, analysistest.TestData(), lint.NewAnalyzer(lint.Config{Audit: true}), "fixlockcalls")
}
