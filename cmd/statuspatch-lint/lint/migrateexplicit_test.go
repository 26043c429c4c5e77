package lint_test

import (
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/statuspatch/statuspatch/cmd/statuspatch-lint/lint"
)

// A generic helper called with its type arguments written
// (migrateexplicit): markReady[string](w, ...), pair[A, B], a generic
// type's method, a status-writing helper save[string](...), are followed
// as the calls that infer them are. At s104 kube.CalledFunc answered nil
// for an explicit instance (and the instance, not the declared method,
// for a generic type's), so the callee was not seen.
func TestMigrateExplicit(t *testing.T) {
	analysistest.RunWithSuggestedFixes(t, analysistest.TestData(),
		lint.NewAnalyzer(lint.Config{Patchers: opPatchers, TestRefs: "example.com/op/controllers/migrateexplicit="}), "example.com/op/controllers/migrateexplicit")
}
