package lint_test

import (
	"testing"

	"github.com/statuspatch/statuspatch/cmd/statuspatch-lint/lint"
	"golang.org/x/tools/go/analysis/analysistest"
)

// Review of the re-reads (migraterereads.go): a deferred write spans a
// re-Get written after it, which becomes the patcher's Fetch. At fc01b3f
// it stayed a Get, and the deferred Flush conflicted whenever another
// writer wrote between the first write and the re-read.
func TestAdvDefer(t *testing.T) {
	analysistest.RunWithSuggestedFixes(t, analysistest.TestData(),
		lint.NewAnalyzer(lint.Config{Patchers: opPatchers}), "example.com/op/controllers/advdefer")
}

// The same with a deferred helper call: its argument, the patcher, is
// taken when the defer is registered, before the re-Get, so the writes
// stay, naming both (migratedeferheld.go); so do a helper's call in a
// deferred literal and a value's deferred Update. Without a re-read the
// deferred helper takes the patcher.
func TestAdvDeferHelper(t *testing.T) {
	analysistest.RunWithSuggestedFixes(t, analysistest.TestData(),
		lint.NewAnalyzer(lint.Config{Patchers: opPatchers, TestRefs: "example.com/op/controllers/advdeferhelper="}), "example.com/op/controllers/advdeferhelper")
}
