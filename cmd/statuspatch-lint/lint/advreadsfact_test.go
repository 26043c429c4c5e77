package lint_test

import (
	"testing"

	"github.com/statuspatch/statuspatch/cmd/statuspatch-lint/lint"
	"golang.org/x/tools/go/analysis/analysistest"
)

// Review RB of s97b's readsFact: a helper of another package given a
// client that only reads the object keeps the lock, but what it hands
// back may write the object later: a returned helper's method
// (cluster-api's patch.NewHelper, then helper.Patch; NewWriter, then
// Write): at 6abf647 both were locked, helper.Patch taken for a client's
// own Patch of its second argument (ctx); and a goroutine given both
// writes it (no fact).
func TestAdvReadsFact(t *testing.T) {
	analysistest.Run(t, analysistest.TestData(), lint.NewAnalyzer(lint.Config{Audit: true}), "advreadsfact", "example.com/op/advreadhelper")
}
