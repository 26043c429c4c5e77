package lint_test

import (
	"strings"
	"testing"

	"github.com/statuspatch/statuspatch/cmd/statuspatch-lint/lint"
	"golang.org/x/tools/go/analysis/analysistest"
)

// A status write of an object the function makes and writes unread
// stays (s112): a patcher over it refuses its Flush (no resourceVersion),
// and its lock would send an empty one, so neither the move nor the lock
// is offered; the reason names the line and FetchWidgetStatusPatcher. At
// d4979aa7 freshPatch moved onto NewWidgetStatusPatcher over it. One read
// with Get moves; one created, copied into, or read again on a loop's
// later turn stays for the reason it had. The migrated package is
// advunread.go.golden.
func TestAdvUnread(t *testing.T) {
	results := analysistest.RunWithSuggestedFixes(t, analysistest.TestData(),
		lint.NewAnalyzer(lint.Config{Patchers: opPatchers}), "example.com/op/controllers/advunread")
	moved := 0
	for _, r := range results {
		for _, d := range r.Diagnostics {
			for _, f := range d.SuggestedFixes {
				if strings.HasPrefix(f.Message, "move the status write onto") {
					moved++
				}
			}
		}
	}
	if moved != 1 {
		t.Errorf("%d writes moved, want 1 (read)", moved)
	}
}
