package lint_test

import (
	"testing"

	"github.com/statuspatch/statuspatch/cmd/statuspatch-lint/lint"
	"golang.org/x/tools/go/analysis/analysistest"
)

// An exported status helper, not a link of a chain, whose callers are
// all in its own package, under the module's driver: it moves with a
// caller that reads the object with Get, and with one that writes the
// object itself too (one life: the caller's patcher); with a caller that
// cannot make the patcher it stays, naming that caller's line and why
// (own.go.golden). At cb49be1 the first two said "no package of the
// module calls it", and the third "move them by hand".
func TestMigrateOwnExported(t *testing.T) {
	analysistest.RunWithSuggestedFixes(t, analysistest.TestData(), lint.OwnModuleAnalyzer(lint.Config{Patchers: opPatchers}),
		"example.com/op/controllers/migrateownexported")
}
