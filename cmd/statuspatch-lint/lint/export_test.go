package lint

import (
	"go/token"
	"testing"

	"github.com/statuspatch/statuspatch/cmd/statuspatch-lint/lint/internal/migrate"
	"golang.org/x/tools/go/analysis"
)

// OwnModuleAnalyzer is the module's analyzer (Config.Module) on packages
// no other package of the module calls: each package's groups are
// resolved from its own members as ResolveGroups resolves them, before
// analysistest checks its findings and fixes.
func OwnModuleAnalyzer(cfg Config) *analysis.Analyzer {
	cfg.Module = true
	a := newAnalyzer(&cfg)
	a.Run = func(pass *analysis.Pass) (any, error) {
		var diags []analysis.Diagnostic
		own := *pass
		own.Report = func(d analysis.Diagnostic) { diags = append(diags, d) }
		res, err := run(&own, cfg)
		if err != nil {
			return nil, err
		}
		byKey := map[string][]migrate.GroupMember{}
		for _, m := range res.Members {
			if m.Calls == nil && m.Needs == nil {
				byKey[m.Key] = append(byKey[m.Key], m)
			}
		}
		resolve(pass.Fset, diags, res.Members, byKey, func(string, string) string { return "" }, map[string]*analysis.Diagnostic{}, map[string]string{})
		for _, d := range diags {
			pass.Report(d)
		}
		return res, nil
	}
	return a
}

// PlanFailing makes -fix's planning of the writes fail tells panic,
// until the test ends; the lint package's tests do not run in parallel.
func PlanFailing(t testing.TB, fail func(token.Position) bool) {
	old := fixPlanner
	fixPlanner = func(pass *analysis.Pass, files migrate.Files, opts migrate.Options, ws []*migrate.Write, w *migrate.Write) (*analysis.SuggestedFix, string) {
		if fail(pass.Fset.Position(w.Lparen)) {
			panic("planned to fail")
		}
		return old(pass, files, opts, ws, w)
	}
	t.Cleanup(func() { fixPlanner = old })
}
