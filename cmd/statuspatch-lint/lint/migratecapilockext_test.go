package lint_test

import (
	"strings"
	"testing"

	"github.com/statuspatch/statuspatch/cmd/statuspatch-lint/lint"
	"golang.org/x/tools/go/analysis/analysistest"
)

// A kept patch helper whose base is taken before a function of another
// package, given a client and the object (finutil.Ensure, a finalizer's
// Update), runs on the way to its deferred Patch gets no lock, naming the
// call: the lock would send the resourceVersion that write moved. A
// function of another package given no client leaves the lock on.
func TestMigrateCAPILockExternal(t *testing.T) {
	results := analysistest.RunWithSuggestedFixes(t, analysistest.TestData(),
		lint.NewAnalyzer(lint.Config{Patchers: opPatchers, TestRefs: "example.com/op/controllers/migratecapilockext="}), "example.com/op/controllers/migratecapilockext")
	locked := 0
	for _, r := range results {
		for _, d := range r.Diagnostics {
			for _, f := range d.SuggestedFixes {
				if strings.HasPrefix(f.Message, "add client.MergeFromWithOptimisticLock") {
					locked++
				}
			}
		}
	}
	if locked != 2 {
		t.Errorf("%d patches locked, want 2 (readHelper's, otherHelper's)", locked)
	}
}
