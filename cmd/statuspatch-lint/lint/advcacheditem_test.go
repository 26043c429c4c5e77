package lint_test

import (
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/statuspatch/statuspatch/cmd/statuspatch-lint/lint"
)

// A generated patcher made with New over a List's item and flushed
// plainly (issue 80, R's itemFixed: it passed -ci with no word): -audit
// keeps it optimistic and says the base is the cache's copy, that its
// Flush conflicts whenever the cache lags, and the fix (Fetch...Into or
// Retry); Retry, a Fetch, a Get's object and a DeepCopy then fetched get
// no note (cacheditem.go). At 3e67ca46 the four noted writes were plain
// "generated patcher". -ci reports none of them: the lock loses nothing.
// A List is known by its type (listtype.go): one by its embedded
// metav1.ListMeta alone is noted; a struct of the user's with an Items
// field, and a List's slice not named Items (no cache fills it), are not
// (at 9095f986 the user's struct was noted: a field named Items was an item).
func TestAuditCachedItem(t *testing.T) {
	audit := analysistest.Run(t, analysistest.TestData(), lint.NewAnalyzer(lint.Config{Audit: true}), "cacheditem")
	for _, r := range analysistest.Run(&discard{t}, analysistest.TestData(), lint.NewAnalyzer(lint.Config{CI: true}), "cacheditem") {
		for _, d := range r.Diagnostics {
			t.Errorf("-ci reports %s: %s", r.Pass.Fset.Position(d.Pos), d.Message)
		}
	}
	notes := 0
	for _, r := range audit {
		for _, d := range r.Diagnostics {
			if strings.Contains(d.Message, "over an item of a List, the cache's copy") {
				notes++
			}
		}
	}
	if notes != 5 {
		t.Errorf("%d Flushes noted as over a List item, want 5", notes)
	}
}
