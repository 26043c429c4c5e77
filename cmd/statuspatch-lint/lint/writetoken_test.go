package lint_test

import (
	"fmt"
	"testing"

	"github.com/statuspatch/statuspatch/cmd/statuspatch-lint/lint"
	"golang.org/x/tools/go/analysis/analysistest"
)

// A handwritten write of a status field marked +statuspatch:writeToken is
// reported in every mode, through the patcher or not: the patcher sets
// the token on every write (issue 71). The marker is found in the package
// that declares the field (a fact), or in the package under analysis.
// Reads, comparisons, the generated patcher's code and fields without the
// marker are not reported; -audit says of a token kind's patcher what it
// says of any generated patcher.
func TestWriteToken(t *testing.T) {
	analysistest.Run(t, analysistest.TestData(), lint.NewAnalyzer(lint.Config{}), "writetoken")
	analysistest.Run(t, analysistest.TestData(), lint.NewAnalyzer(lint.Config{Audit: true}), "writetoken_audit")
	// -ci, a gate, reports it too: the settling it breaks is the patcher's.
	var got []string
	for _, r := range analysistest.Run(&discard{t}, analysistest.TestData(), lint.NewAnalyzer(lint.Config{CI: true}), "writetoken_audit") {
		for _, d := range r.Diagnostics {
			got = append(got, fmt.Sprintf("%d %s: %s", r.Pass.Fset.Position(d.Pos).Line, d.Category, d.Message))
		}
	}
	want := "21 writetoken: LedgerStatus.WriteToken is the write token (+statuspatch:writeToken): the patcher sets it on every write; remove this assignment"
	if len(got) != 1 || got[0] != want {
		t.Errorf("-ci reports %q, want only %q", got, want)
	}
}
