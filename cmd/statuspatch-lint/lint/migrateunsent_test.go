package lint_test

import (
	"go/token"
	"slices"
	"strings"
	"testing"

	"github.com/statuspatch/statuspatch/cmd/statuspatch-lint/lint"
	"golang.org/x/tools/go/analysis/analysistest"
)

// By default (-nonstatus-unsent), -fix moves a status subresource write kept
// only by changes outside the status, which it leaves unsent, onto a patcher made with
// patcher.WithNonStatusChangesUnsent() (migrateunsent.go.golden); and a
// conflict loop with a wait.Backoff variable of its own into Retry with
// patcher.WithBackoff (migrateloopbackoff.go.golden).
func TestMigrateUnsentAndBackoff(t *testing.T) {
	results := analysistest.RunWithSuggestedFixes(t, analysistest.TestData(), lint.NewAnalyzer(lint.Config{Patchers: opPatchers, TestRefs: "example.com/op/controllers/migrateunsent="}),
		"example.com/op/controllers/migrateunsent", "example.com/op/controllers/migrateloopbackoff")
	unsent, backoff := 0, 0
	for _, r := range results {
		for _, d := range r.Diagnostics {
			for _, f := range d.SuggestedFixes {
				for _, e := range f.TextEdits {
					unsent += strings.Count(string(e.NewText), "WithNonStatusChangesUnsent()")
					backoff += strings.Count(string(e.NewText), "WithBackoff(")
				}
			}
		}
	}
	if unsent != 10 || backoff != 2 {
		t.Errorf("%d patchers made with WithNonStatusChangesUnsent, %d with WithBackoff; want 10 and 2", unsent, backoff)
	}
}

// -nonstatus-unsent is on by default (a zero lint.Config has it:
// NonStatusKept false), and -nonstatus-unsent=false turns it off.
func TestNonStatusUnsentFlag(t *testing.T) {
	f := lint.Analyzer.Flags.Lookup("nonstatus-unsent")
	if f == nil || f.DefValue != "true" {
		t.Fatalf("-nonstatus-unsent: %+v, want a flag whose default is true", f)
	}
	t.Cleanup(func() {
		if err := f.Value.Set("true"); err != nil {
			t.Error(err)
		}
	})
	for _, v := range []string{"false", "true"} {
		if err := lint.Analyzer.Flags.Set("nonstatus-unsent", v); err != nil || f.Value.String() != v {
			t.Errorf("-nonstatus-unsent=%s: %v, reads %s", v, err, f.Value.String())
		}
	}
	if b, ok := f.Value.(interface{ IsBoolFlag() bool }); !ok || !b.IsBoolFlag() {
		t.Error("-nonstatus-unsent is not a boolean flag: -nonstatus-unsent alone would need a value")
	}
}

// Two helpers given one object by one caller take the one patcher it
// makes after its Get, made with patcher.WithNonStatusChangesUnsent()
// when a call of either follows a change outside the status, in either
// order (kueue's multikueue ClusterQueue reconciler, where each helper's
// move made a patcher of its own options: two declarations of one name).
// Beside them, a helper whose call follows a change of identity stays,
// saying so, and the other helper of its caller moves without the option.
func TestMigrateUnsentSharedByHelpers(t *testing.T) {
	results := analysistest.RunWithSuggestedFixes(t, analysistest.TestData(), lint.NewAnalyzer(lint.Config{Patchers: opPatchers, TestRefs: "example.com/op/controllers/migrateunsentshared="}),
		"example.com/op/controllers/migrateunsentshared")
	ctors := map[token.Pos][]string{} // each place a patcher is made at: the texts made there
	for _, r := range results {
		for _, d := range r.Diagnostics {
			for _, f := range d.SuggestedFixes {
				for _, e := range f.TextEdits {
					if s := strings.TrimSpace(string(e.NewText)); strings.Contains(s, "NewWidgetStatusPatcher(") && !slices.Contains(ctors[e.Pos], s) {
						ctors[e.Pos] = append(ctors[e.Pos], s)
					}
				}
			}
		}
	}
	unsent := 0
	for _, made := range ctors {
		if len(made) != 1 {
			t.Errorf("the patchers made at one place: %q, want one", made)
		}
		if strings.Contains(made[0], "WithNonStatusChangesUnsent()") {
			unsent++
		}
	}
	if len(ctors) != 3 || unsent != 2 {
		t.Errorf("patchers made at %d places, %d with WithNonStatusChangesUnsent(); want 3 (one in each caller), 2", len(ctors), unsent)
	}
}
