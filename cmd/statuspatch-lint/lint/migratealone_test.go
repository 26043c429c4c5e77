package lint_test

import (
	"testing"

	"github.com/statuspatch/statuspatch/cmd/statuspatch-lint/lint"
	"golang.org/x/tools/go/analysis/analysistest"
)

// Analyzed a package at a time (vet, golangci-lint), a caller's write
// that stays because it hands the object to an exported helper of
// another package says whether statuspatch-lint -fix on the whole module
// moves the two together (the helper's HelperFact, Alone): the module's
// driver asks the same checks (issue 80).
func TestMigrateAloneHelper(t *testing.T) {
	analysistest.Run(t, analysistest.TestData(), lint.NewAnalyzer(lint.Config{Patchers: opPatchers}), "example.com/op/markutil", "example.com/op/controllers/migratealone")
}
