package lint

import (
	"fmt"
	"go/ast"
	"go/token"
	"path/filepath"
	"slices"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/checker"

	"github.com/statuspatch/statuspatch/cmd/statuspatch-lint/lint/internal/migrate"
)

// TestFiles parses into fset the in-package test files (package name) of
// the package in dir, for a driver's ResolveTestCalls: the analyzer
// reads no file outside the package it is given.
type TestFiles func(fset *token.FileSet, dir, name string) ([]*ast.File, error)

// ResolveTestCalls resolves the helpers whose in-package test files call
// them (migrate.TestCalls, a member of the helper's package): the helper's
// fix gets the edits of those calls, each passing the patcher made over
// its object, or goes, the finding saying which call cannot and why.
// module is the module's path: a test's call handing the object to one
// of its functions is judged by that function's body (testcallstypes.go).
func ResolveTestCalls(graph *checker.Graph, tests TestFiles, module string) {
	var bodies *moduleBodies
	for _, act := range graph.Roots {
		res, ok := act.Result.(*Result)
		if !ok || act.Err != nil {
			continue
		}
		var parsed []*ast.File
		var judge migrate.CallJudge
		var readErr error
		read := false
		done := map[token.Pos]bool{}
		for _, m := range res.Members {
			if m.Tests == nil || done[m.Pos] {
				continue
			}
			done[m.Pos] = true
			// The helper moves with its test calls or not at all: every
			// finding at its write whose fix cannot take their edits (none
			// or more than one fix) loses its fixes.
			var at []*analysis.Diagnostic
			for i := range act.Diagnostics {
				if d := &act.Diagnostics[i]; d.Pos == m.Pos && len(d.SuggestedFixes) > 0 {
					at = append(at, d)
				}
			}
			if len(at) == 0 {
				continue
			}
			why := ""
			if len(at) > 1 || len(at[0].SuggestedFixes) > 1 {
				why = fmt.Sprintf("its write's %d finding(s) have %d fixes, and its test calls' edits go with a single fix alone", len(at), fixCount(at))
			}
			d := at[0]
			if why == "" && !read {
				read = true
				dir := filepath.Dir(act.Package.Fset.Position(m.Pos).Filename)
				parsed, readErr = tests(act.Package.Fset, dir, act.Package.Types.Name())
				if readErr == nil && len(parsed) > 0 {
					if bodies == nil {
						bodies = newModuleBodies(graph, module)
					}
					judge = bodies.typed(act, parsed)
				}
			}
			if why == "" && readErr != nil {
				why = "its package's test files cannot be read: " + readErr.Error()
			}
			var edits []analysis.TextEdit
			if why == "" {
				edits, why = m.Tests.Edits(act.Package.Fset, parsed, judge)
			}
			if why != "" {
				for _, d := range at {
					if stays := m.TestsStay(why); stays != "" {
						d.Message += " (not moved to the patcher: " + stays + ")"
					}
					d.SuggestedFixes = nil
				}
				continue
			}
			if len(edits) == 0 {
				continue
			}
			fix := d.SuggestedFixes[0]
			fix.TextEdits = append(slices.Clip(fix.TextEdits), edits...)
			if msg, ok := strings.CutSuffix(fix.Message, ")"); ok {
				fix.Message = msg + "; its calls in the package's tests pass one made there over their object)"
			}
			d.SuggestedFixes[0] = fix
		}
	}
}

// fixCount is how many fixes the findings ds have.
func fixCount(ds []*analysis.Diagnostic) int {
	n := 0
	for _, d := range ds {
		n += len(d.SuggestedFixes)
	}
	return n
}
