package main

import (
	"path/filepath"
	"testing"

	"github.com/statuspatch/statuspatch/cmd/statuspatch-lint/internal/ondisk"
	"github.com/statuspatch/statuspatch/cmd/statuspatch-lint/lint"
	"golang.org/x/tools/go/analysis/analysistest"
)

// A new user's controller, before it imports the patchers generated into
// internal/patchers (lint/testdata/newcomer is a module: the search is the
// module's, outside testdata/): the command finds them on disk and passes
// them to the analyzer, whose message names their package, not
// "generate"; a kind with none generated gets the old message; after the
// import, nothing is left.
func TestGeneratedButNotImported(t *testing.T) {
	t.Setenv("GOWORK", "off")
	dir := filepath.Join("lint", "testdata", "newcomer")
	ps := ondisk.PatchersArg(filepath.Join(dir, "internal", "controller"))
	if want := "example.com/newcomer/api/v1.Website=example.com/newcomer/internal/patchers"; ps != want {
		t.Fatalf("ondisk.PatchersArg = %q, want %q", ps, want)
	}
	analysistest.Run(t, dir, lint.NewAnalyzer(lint.Config{Patchers: ps}), "./internal/controller", "./internal/adopted")
}

// Without the command's lookup the analyzer reads nothing on disk: the
// same controller is told to generate what it has not imported.
func TestAnalyzerAloneReadsNoOtherPackage(t *testing.T) {
	t.Setenv("GOWORK", "off")
	dir, _ := filepath.Abs(filepath.Join("lint", "testdata", "newcomer"))
	for _, r := range analysistest.Run(&quiet{t}, dir, lint.NewAnalyzer(lint.Config{}), "./internal/controller") {
		for _, d := range r.Diagnostics {
			if d.Message == "handwritten status write to Website: use WebsiteStatusPatcher (example.com/newcomer/internal/patchers)" {
				t.Errorf("%s: the analyzer named a patcher it was not given: %s", r.Pass.Fset.Position(d.Pos), d.Message)
			}
		}
	}
}

// quiet is a testing.TB for analysistest.Run that ignores mismatches with
// the want comments.
type quiet struct{ *testing.T }

func (q *quiet) Errorf(string, ...any) {}
