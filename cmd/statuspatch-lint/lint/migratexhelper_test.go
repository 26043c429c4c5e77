package lint_test

import (
	"testing"

	"github.com/statuspatch/statuspatch/cmd/statuspatch-lint/lint"
	"golang.org/x/tools/go/analysis/analysistest"
)

// A helper of another package of the module that reads the object
// (getutil.GetWidget hands it back, getutil.Load reads into the one it
// is given) has a fact saying so (ParamsFact.Reads): its Get runs first
// and the object comes back unchanged, and the caller's write moves to a
// patcher made after the call. One that may return before its Get, or
// changes the object after it, keeps the write, naming its file:line.
func TestMigrateImportedHelperRead(t *testing.T) {
	analysistest.Run(t, analysistest.TestData(), lint.NewAnalyzer(lint.Config{}), "example.com/op/getutil")
	analysistest.RunWithSuggestedFixes(t, analysistest.TestData(),
		lint.NewAnalyzer(lint.Config{Patchers: opPatchers}), "example.com/op/controllers/xhelper")
}
