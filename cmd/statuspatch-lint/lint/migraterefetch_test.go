package lint_test

import (
	"strings"
	"testing"

	"github.com/statuspatch/statuspatch/cmd/statuspatch-lint/lint"
	"golang.org/x/tools/go/analysis/analysistest"
)

// A re-Get after the patcher the code made (migraterefetch): it becomes
// that patcher's fresh read, p, err := FetchWidgetStatusPatcher(...) and
// order = p.Object() (with p's options), or, where a deferred literal
// flushes p (b) or holds a write that becomes p's Flush (e), pFetched,
// err := FetchWidgetStatusPatcherInto(..., order) and p = pFetched after
// the check; the writes after it p's Flush. At 3e67ca46 all three stayed: "order is read again with Get at line N, after
// its patcher p is made at line M: p no longer holds what this write
// would send". A re-Get whose error branch goes on or flushes p (a
// failed Fetch leaves p nil), one after a defer statement that takes p,
// or one before a helper's write that would take p, stays a Get, and its
// write stays, naming both lines. Where p is an outer var, the Fetch
// assigns it (outer.go), never declares a p shadowing it.
func TestMigrateRefetch(t *testing.T) {
	results := analysistest.RunWithSuggestedFixes(t, analysistest.TestData(),
		lint.NewAnalyzer(lint.Config{Patchers: opPatchers, NonStatusKept: true, TestRefs: "example.com/op/controllers/migraterefetch="}), "example.com/op/controllers/migraterefetch")
	fetched, second := map[string]bool{}, 0 // the re-Gets made Fetches, by position: (e)'s two writes carry one
	for _, r := range results {
		for _, d := range r.Diagnostics {
			for _, f := range d.SuggestedFixes {
				for _, e := range f.TextEdits {
					text := string(e.NewText)
					if strings.Contains(text, "p, err := patchers.FetchWidgetStatusPatcher(") || strings.Contains(text, "pFetched, err := patchers.FetchWidgetStatusPatcherInto(") {
						fetched[r.Pass.Fset.Position(e.Pos).String()] = true
					}
					if strings.Contains(text, "NewWidgetStatusPatcher") {
						second++
					}
				}
			}
		}
	}
	if len(fetched) != 3 || second != 0 {
		t.Errorf("%d re-Gets made p's Fetch, %d second patchers made; want 3, 0", len(fetched), second)
	}
}

// A second -fix run over the first one's output changes nothing and
// keeps the two writes after a re-Get that stays, naming its lines.
func TestMigrateRefetchTwice(t *testing.T) {
	kept := fixTwice(t, "example.com/op/controllers/migraterefetch", "refetch.go", "outer.go")
	all := strings.Join(kept, "\n")
	if len(kept) != 4 || !strings.Contains(all, "read again with Get at line 80, after its patcher p is made at line 75") || !strings.Contains(all, "the defer statement at line 95 takes p") ||
		!strings.Contains(all, "its caller at line 27: order is read again with Get at line 24, after its patcher p is made at line 19") || !strings.Contains(all, "its error branch at line 44 uses p") {
		t.Errorf("the second run keeps %d writes, want 4 naming the lines:\n%s", len(kept), all)
	}
}
