package lint_test

import (
	"testing"

	"github.com/statuspatch/statuspatch/cmd/statuspatch-lint/lint"
	"golang.org/x/tools/go/analysis/analysistest"
)

// Review of the generic own-base move (migrategenericbase.go): the kind
// ForType makes the patcher of is T as the call instantiates it. T
// client.Object (inferred from an interface argument, or written
// name[client.Object] on a Widget) stays, naming the interface: no
// generated patcher is a Patcher[client.Object]. name[*v1.Widget]
// moves. Before: name[T](...) stayed as "used other than called".
func TestAdvGeneric(t *testing.T) {
	analysistest.RunWithSuggestedFixes(t, analysistest.TestData(),
		lint.NewAnalyzer(lint.Config{Patchers: opPatchers, TestRefs: "example.com/op/controllers/advgeneric="}), "example.com/op/controllers/advgeneric")
}
