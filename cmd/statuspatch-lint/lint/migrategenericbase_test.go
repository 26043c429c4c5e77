package lint_test

import (
	"strings"
	"testing"

	"github.com/statuspatch/statuspatch/cmd/statuspatch-lint/lint"
	"golang.org/x/tools/go/analysis/analysistest"
)

// Issue 80's B3 (migrategenericbase): a helper over any kind that takes
// its base itself, base := obj.DeepCopyObject().(T), and hands the object
// to a function before its merge patch (the newcomer's patchStatus[T]
// at 1bc16a4) was locked and kept ("an object of unknown kind"). Its base
// becomes patchers.ForType(c, obj), with WithNonStatusChangesUnsent (the
// status subresource stored only the status), and its write Flush, when
// every caller passes a kind with a generated patcher; else it stays,
// naming the caller and the kind.
func TestMigrateGenericOwnBase(t *testing.T) {
	results := analysistest.RunWithSuggestedFixes(t, analysistest.TestData(),
		lint.NewAnalyzer(lint.Config{Patchers: opPatchers, TestRefs: "example.com/op/controllers/migrategenericbase="}), "example.com/op/controllers/migrategenericbase")
	moved := 0
	for _, r := range results {
		for _, d := range r.Diagnostics {
			for _, f := range d.SuggestedFixes {
				if strings.HasPrefix(f.Message, "move the status write onto the generated patchers") && strings.Contains(f.Message, "with patchers.For") {
					moved++
				}
			}
		}
	}
	// Eight: decideStatus's, tokenStatus's, namedStatus's and
	// numberStatus's callers decide from the status, their mutate is
	// called in the patcher's Retry (migrategenericretry.go);
	// tokenStatus's caller's tokens.Add and numberStatus's nextID() made
	// once, namedStatus's validName.MatchString run per attempt, a reader
	// (migrateonce.go).
	if moved != 8 {
		t.Errorf("%d helpers moved onto patchers.ForType or For, want 8", moved)
	}
}
