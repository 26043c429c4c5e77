package lint_test

import (
	"testing"

	"github.com/statuspatch/statuspatch/cmd/statuspatch-lint/lint"
	"golang.org/x/tools/go/analysis/analysistest"
)

// A blind merge patch whose base is taken after a kept apply of its
// object: moved onto a patcher made at the read, before the apply, its
// Flush conflicted whenever the apply changed anything, where the blind
// patch was stored; locked at the base, so did the patch. It stays, blind,
// naming the apply (appliedBetween; the lint's appliedBefore), as do an
// apply by a helper and (no lock) a copy's write before the base; a
// re-read after the apply moves.
func TestAdvApplyMerge(t *testing.T) {
	analysistest.RunWithSuggestedFixes(t, analysistest.TestData(),
		lint.NewAnalyzer(lint.Config{Patchers: opPatchers, NonStatusKept: true}), "example.com/op/controllers/advapplymerge")
}
