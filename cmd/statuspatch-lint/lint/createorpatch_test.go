package lint_test

import (
	"slices"
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
// -fix moves the two whose mutate literal changes the status itself
// (register, condition: TestCreateOrPatchFix has the moves' goldens) and
// keeps the others, with their reason.
func TestCreateOrPatchStatus(t *testing.T) {
	for _, r := range analysistest.Run(t, analysistest.TestData(),
		lint.NewAnalyzer(lint.Config{Patchers: opPatchers}), "example.com/op/controllers/createorpatch") {
		if len(r.Diagnostics) != 8 {
			t.Errorf("%d findings, want 8", len(r.Diagnostics))
		}
		var fixed []int
		for _, d := range r.Diagnostics {
			if len(d.SuggestedFixes) > 0 {
				fixed = append(fixed, r.Pass.Fset.Position(d.Pos).Line)
			}
		}
		if !slices.Equal(fixed, []int{30, 57}) {
			t.Errorf("fixes offered at lines %v, want [30 57]", fixed)
		}
	}
}

// -audit and -ci give it its verdict (blind, unresolved) as the category.
// The words hold whether the mutate changed the rest too: then the status
// patch carries the resourceVersion of the patch of the rest (a 409 for a
// status written after it), still none of the Get's.
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

// Issue 80 (project E, /tmp/U3-r's r1): -fix kept every CreateOrPatch
// whose mutate changes the status, and the user's make lint failed on
// it. Now the mutate's status statements move after the call into
// NewWidgetStatusPatcher(c, obj).Retry, not on create, ids.Add made
// once and the operation result kept as CreateOrPatch told it; what
// would not be the same decision stays, the reason naming the line.
// Since s109: _, err = gets a declared op, and an if setting the status
// and more is split in two ifs of its condition (nested.go), where that
// is the same decision.
func TestCreateOrPatchFix(t *testing.T) {
	for _, r := range analysistest.RunWithSuggestedFixes(t, analysistest.TestData(),
		lint.NewAnalyzer(lint.Config{Patchers: opPatchers}), "example.com/op/controllers/createorpatchfix") {
		fixed := 0
		for _, d := range r.Diagnostics {
			if len(d.SuggestedFixes) > 0 {
				fixed++
			}
		}
		if len(r.Diagnostics) != 54 || fixed != 15 {
			t.Errorf("%d findings, %d with a fix; want 54, 15", len(r.Diagnostics), fixed)
		}
	}
}
