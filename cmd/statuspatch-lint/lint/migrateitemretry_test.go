package lint_test

import (
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/statuspatch/statuspatch/cmd/statuspatch-lint/lint"
)

// A List item's decision with an exit (migrateitemretry): karpenter's
// updateBufferProvisioningStatus continues when there is no condition to
// set, which kept its write at s88a with Fetch advice. A continue of the
// loop the write ends, or a return nil of a function ending in the write,
// is mutate's return nil, and a return of an error the write's error
// path returns alike mutate's return of it (strict, kept at adaadbc9); an
// exit that skips more, one after a change or a call taking a context
// (of a function whose body writes to the cluster or is not seen)
// keeps the write, naming the line. A map's item read in the comma-ok form (w, ok := byKey[k],
// then if !ok { return }) is one as byKey[k] is: its patcher made after
// the check. A branch statement is judged by the statement it continues
// or leaves (branches.go): a continue in a select continues the loop
// around it, a labeled one the loop its label names. A check of the
// status before the item's base (guards.go, issue 80's projects D and E)
// moves into Retry with the decision, the Fetch made before it.
func TestMigrateItemRetry(t *testing.T) {
	results := analysistest.RunWithSuggestedFixes(t, analysistest.TestData(),
		lint.NewAnalyzer(lint.Config{Patchers: opPatchers}), "example.com/op/controllers/migrateitemretry")
	retried := 0
	for _, r := range results {
		for _, d := range r.Diagnostics {
			for _, f := range d.SuggestedFixes {
				for _, e := range f.TextEdits {
					if strings.Contains(string(e.NewText), "Patcher.Retry(ctx, func(") {
						retried++
					}
				}
			}
		}
	}
	if retried != 14 {
		t.Errorf("%d writes moved into Retry, want 14", retried)
	}
}
