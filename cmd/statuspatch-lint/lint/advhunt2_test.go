package lint_test

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/statuspatch/statuspatch/cmd/statuspatch-lint/lint"
	"golang.org/x/tools/go/analysis/analysistest"
)

// -fix over shapes real reconcilers compose (s112's adversary): the
// client a write goes through, declared, shadowed or set after the read
// the patcher is made at (clients.go: those writes stay, naming the
// line; the ones whose client is the write's at the read move, and since
// s117 those whose client is declared right after the read, nothing using
// the object between, move with the patcher made after it); reads in
// a block the write is not in, an object assigned whole through its
// pointer, an object asserted from the one read, whose writes stay for
// what they do (reads.go); a shadowed copy, a switch beside a deferred
// write, a named result a defer wraps (advhunt2.go: moved). The fixes
// are the .golden files; the reasons are the want comments.
func TestAdvHunt2(t *testing.T) {
	results := analysistest.RunWithSuggestedFixes(t, analysistest.TestData(),
		lint.NewAnalyzer(lint.Config{Patchers: opPatchers}), "example.com/op/controllers/advhunt2")
	fixed := map[string]int{}
	for _, r := range results {
		for _, d := range r.Diagnostics {
			for _, f := range d.SuggestedFixes {
				if strings.HasPrefix(f.Message, "move the status write onto") {
					fixed[filepath.Base(r.Pass.Fset.File(d.Pos).Name())]++
				}
			}
		}
	}
	for file, n := range map[string]int{"advhunt2.go": 5, "clients.go": 4, "reads.go": 0} {
		if fixed[file] != n {
			t.Errorf("%s: %d writes moved, want %d", file, fixed[file], n)
		}
	}
}
