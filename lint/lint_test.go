package lint_test

import (
	"testing"

	"github.com/statuspatch/statuspatch/lint"
	"golang.org/x/tools/go/analysis/analysistest"
)

func TestDefault(t *testing.T) {
	a := lint.NewAnalyzer(lint.Config{})
	analysistest.Run(t, analysistest.TestData(), a, "basic")
}
