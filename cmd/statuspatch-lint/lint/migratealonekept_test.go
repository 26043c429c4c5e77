package lint_test

import (
	"testing"

	"github.com/statuspatch/statuspatch/cmd/statuspatch-lint/lint"
	"golang.org/x/tools/go/analysis/analysistest"
)

// Issue 80, helper T's perpackage-reason-false (aloneAsked,
// migrateexported.go): analyzed a package at a time, a write kept
// beside an exported helper's that only the whole module moves names
// what keeps it in the whole module (its deferred decision), not a move
// the module's run does not make; with nothing else keeping it, it says
// the module moves them together unless another caller keeps the
// helper's write.
func TestMigrateAloneKept(t *testing.T) {
	analysistest.Run(t, analysistest.TestData(), lint.NewAnalyzer(lint.Config{Patchers: opPatchers}), "example.com/op/markutil", "example.com/op/controllers/migratealonekept")
}
