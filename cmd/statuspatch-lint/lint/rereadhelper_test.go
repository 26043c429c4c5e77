package lint_test

import (
	"strings"
	"testing"

	"github.com/statuspatch/statuspatch/cmd/statuspatch-lint/lint"
	"golang.org/x/tools/go/analysis/analysistest"
)

// The tutorial's re-Get ("re-fetch to avoid 'the object has been
// modified'"), then a helper of the same package (issue 80): at 867e71de
// a helper writing the status after it, with no write of its caller
// there, was given the patcher made before the re-Get, whose base the Get
// left behind (written, deferred). The re-Get is now that patcher's
// Fetch; where it stays a Get (ignored; viaRefetch, a function of the
// package reading it), the helper's write stays and the reason names the
// read; a helper changing the spec too stays
// (specWritten). A chain of helpers is given the caller's patcher the
// same way (chained), and stays when the re-read does (chainIgnored: at
// 83b73314 the chain took the patcher made before the Get, silently).
// A re-read on a path exclusive of the helper's (one returning before
// it) neither keeps the helper's write nor becomes a Fetch (exclusive,
// exclusiveChecked: at 83b73314 the first was kept, naming the read).
// The migrated package is rereadhelper.go.golden.
func TestRereadSamePackageHelper(t *testing.T) {
	results := analysistest.RunWithSuggestedFixes(t, analysistest.TestData(),
		lint.NewAnalyzer(lint.Config{Patchers: opPatchers, TestRefs: "example.com/op/controllers/rereadhelper="}), "example.com/op/controllers/rereadhelper")
	moved, kept := 0, 0
	for _, r := range results {
		for _, d := range r.Diagnostics {
			switch {
			case len(d.SuggestedFixes) == 1 && strings.HasPrefix(d.SuggestedFixes[0].Message, "move the status write onto WidgetStatusPatcher"):
				moved++
			case strings.Contains(d.Message, "(not moved to the patcher: "):
				kept++
			}
		}
	}
	if moved != 19 || kept != 4 {
		t.Errorf("%d writes moved, %d kept, want 19 and 4", moved, kept)
	}
}
