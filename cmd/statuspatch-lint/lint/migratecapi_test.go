package lint_test

import (
	"strings"
	"testing"

	"github.com/statuspatch/statuspatch/cmd/statuspatch-lint/lint"
	"golang.org/x/tools/go/analysis/analysistest"
)

// Issue 80's third newcomer project (cluster-api's patch helper): a
// status Patch in a method of a helper type taking a client.Object,
// called from Reconcile's defer with the *Widget it read, was kept with
// advice to move it by hand (at f37c80a: "obj is a client.Object
// parameter of patchHelper.Patch ..."). The helper's body now holds the
// StatusPatcher of patchers.For in place of its base, and its write is
// Flush, its callers unchanged, when the base is only the write's, Patch
// writes nothing else, and every caller gives the constructor a kind it
// read with Get and Patch that same object; else the write stays, its
// reason naming the line (a base read elsewhere, a Patch writing the
// spec too, another object given to Patch, an object no Get read, an
// exported helper such as cluster-api's util/patch.Helper).
func TestMigrateCAPIPatchHelper(t *testing.T) {
	results := analysistest.RunWithSuggestedFixes(t, analysistest.TestData(),
		lint.NewAnalyzer(lint.Config{Patchers: opPatchers, TestRefs: "example.com/op/controllers/migratecapi="}), "example.com/op/controllers/migratecapi")
	moved := 0
	for _, r := range results {
		for _, d := range r.Diagnostics {
			for _, f := range d.SuggestedFixes {
				if strings.HasPrefix(f.Message, "move the status write onto the generated patchers") && strings.Contains(f.Message, "holds the StatusPatcher of patchers.For, made with WithNonStatusChangesUnsent") {
					moved++
				}
			}
		}
	}
	if moved != 3 {
		t.Errorf("%d patch helpers moved onto patchers.For, want 3", moved)
	}
}
