package lint_test

import (
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/statuspatch/statuspatch/cmd/statuspatch-lint/lint"
)

// A List item decided from its status, its write's error handled in
// other forms than `if err := write; err != nil { return ... }`
// (migrateitemfetch.go, issue 80): karpenter's buffers.go:117 (a map of
// items, the base replaced, the error appended), `err = write` then `if
// err != nil`, `errs = append(errs, write)` and a helper returning its
// write each get Fetch<Kind>StatusPatcherInto, not New over the listed
// copy (at adaadbc9 all four were New); a handling that neither leaves
// nor ends its loop keeps New.
func TestAdvItemFetch(t *testing.T) {
	results := analysistest.RunWithSuggestedFixes(t, analysistest.TestData(),
		lint.NewAnalyzer(lint.Config{Patchers: opPatchers}), "example.com/op/controllers/advitemfetch")
	fetched, made := 0, 0
	for _, r := range results {
		for _, d := range r.Diagnostics {
			for _, f := range d.SuggestedFixes {
				for _, e := range f.TextEdits {
					fetched += strings.Count(string(e.NewText), "FetchWidgetStatusPatcherInto(ctx, p.client, client.ObjectKeyFromObject(w), w)")
					made += strings.Count(string(e.NewText), "NewWidgetStatusPatcher(")
				}
			}
		}
	}
	if fetched != 5 || made != 1 {
		t.Errorf("%d items fetched and %d made with New, want 5 and 1", fetched, made)
	}
}
