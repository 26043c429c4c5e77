package lint_test

import (
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/statuspatch/statuspatch/cmd/statuspatch-lint/lint"
)

// A reason that names one of several candidates the analyzer finds by
// ranging over a map names the first in source order on every run
// (advmaporder): the continue after a change (exits.go; at b5f6c1b3,
// -count=20 named lines 24, 27 and 30), the literal a local function
// variable may run (closures.go; 6 of 20 named line 17), the neighbour
// write that stays (life.go; 5 of 20 named line 33), the deferred
// write's context declared in its literal (deferctx.go; 16 of 100 named
// second), and the first use after a kept decision of a name it declares
// (note.go, in the fix's message).
func TestAdvMapOrder(t *testing.T) {
	results := analysistest.Run(t, analysistest.TestData(),
		lint.NewAnalyzer(lint.Config{Patchers: opPatchers}), "example.com/op/controllers/advmaporder")
	const note = "it declares size at line 24, used after it at line 29, which a declaration inside Retry's function would hide"
	found := false
	for _, r := range results {
		for _, d := range r.Diagnostics {
			if p := r.Pass.Fset.Position(d.Pos); !strings.HasSuffix(p.Filename, "note.go") || p.Line != 26 {
				continue
			}
			found = true
			if len(d.SuggestedFixes) != 1 || !strings.HasSuffix(d.SuggestedFixes[0].Message, note) {
				t.Errorf("note.go:26: fixes %v, want one ending %q", d.SuggestedFixes, note)
			}
		}
	}
	if !found {
		t.Error("note.go:26: no finding")
	}
}
