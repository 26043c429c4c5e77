package lint_test

import (
	"testing"

	"github.com/statuspatch/statuspatch/cmd/statuspatch-lint/lint"
	"golang.org/x/tools/go/analysis/analysistest"
)

// Issue 80, kueue's clusterqueue_controller.go:561 (s101Q): a write of
// the object outside its status between its read and its copy, whose
// answer is decoded into it and whose error returns, is a read again;
// getters and ContainsFinalizer between read. Until s101Q the kueue
// shape stayed, "r.Update writes w at line N, between them"; a change no
// such write stores still stays, named.
func TestMigrateReadFresh(t *testing.T) {
	analysistest.RunWithSuggestedFixes(t, analysistest.TestData(),
		lint.NewAnalyzer(lint.Config{Patchers: opPatchers, TestRefs: "example.com/op/controllers/migratereadfresh="}), "example.com/op/controllers/migratereadfresh")
}
