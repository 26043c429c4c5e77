package lint_test

import (
	"testing"

	"github.com/statuspatch/statuspatch/cmd/statuspatch-lint/lint"
	"golang.org/x/tools/go/analysis/analysistest"
)

// Issue 80 (project E's Register): controllerutil.CreateOrPatch patches
// the status its mutate changed with client.MergeFrom, a blind status
// write that no call in the package spelled. At 35b060e6 -ci, -audit and
// -fix said nothing. Now the call is reported when its mutate (a literal,
// followed into the package's functions) changes the status, naming the
// line, and as unresolved when the mutate cannot be followed; a mutate of
// the spec and metadata, and CreateOrUpdate, are not reported.
// -fix keeps each finding: no edit is offered, and the finding stays.
func TestCreateOrPatchStatus(t *testing.T) {
	for _, r := range analysistest.Run(t, analysistest.TestData(),
		lint.NewAnalyzer(lint.Config{Patchers: opPatchers}), "example.com/op/controllers/createorpatch") {
		if len(r.Diagnostics) != 8 {
			t.Errorf("%d findings, want 8", len(r.Diagnostics))
		}
		for _, d := range r.Diagnostics {
			if len(d.SuggestedFixes) > 0 {
				t.Errorf("%s: a fix is offered: %+v", r.Pass.Fset.Position(d.Pos), d.SuggestedFixes)
			}
		}
	}
}

// -audit and -ci give it its verdict (blind, unresolved) as the category.
func TestCreateOrPatchAudit(t *testing.T) {
	for _, cfg := range []lint.Config{{Audit: true}, {CI: true}} {
		for _, r := range analysistest.Run(t, analysistest.TestData(), lint.NewAnalyzer(cfg), "createorpatch_audit") {
			for _, d := range r.Diagnostics {
				if want := d.Message[:len(d.Category)]; d.Category != want {
					t.Errorf("%+v %s: category %q, want %q", cfg, r.Pass.Fset.Position(d.Pos), d.Category, want)
				}
			}
		}
	}
}
