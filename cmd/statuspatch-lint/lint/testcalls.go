package lint

import (
	"go/ast"
	"go/token"
	"path/filepath"
	"slices"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/checker"
)

// TestFiles parses into fset the in-package test files (package name) of
// the package in dir, for a driver's ResolveTestCalls: the analyzer
// reads no file outside the package it is given.
type TestFiles func(fset *token.FileSet, dir, name string) ([]*ast.File, error)

// ResolveTestCalls resolves the helpers whose in-package test files call
// them (migrate.TestCalls, a member of the helper's package): the helper's
// fix gets the edits of those calls, each passing the patcher made over
// its object, or goes, the finding saying which call cannot and why.
func ResolveTestCalls(graph *checker.Graph, tests TestFiles) {
	for _, act := range graph.Roots {
		res, ok := act.Result.(*Result)
		if !ok || act.Err != nil {
			continue
		}
		var parsed []*ast.File
		var readErr error
		read := false
		done := map[token.Pos]bool{}
		for _, m := range res.Members {
			if m.Tests == nil || done[m.Pos] {
				continue
			}
			done[m.Pos] = true
			i := slices.IndexFunc(act.Diagnostics, func(d analysis.Diagnostic) bool { return d.Pos == m.Pos && len(d.SuggestedFixes) == 1 })
			if i < 0 {
				continue
			}
			d := &act.Diagnostics[i]
			if !read {
				read = true
				dir := filepath.Dir(act.Package.Fset.Position(m.Pos).Filename)
				parsed, readErr = tests(act.Package.Fset, dir, act.Package.Types.Name())
			}
			why := ""
			if readErr != nil {
				why = "its package's test files cannot be read: " + readErr.Error()
			}
			var edits []analysis.TextEdit
			if why == "" {
				edits, why = m.Tests.Edits(act.Package.Fset, parsed)
			}
			if why != "" {
				if stays := m.TestsStay(why); stays != "" {
					d.Message += " (not moved to the patcher: " + stays + ")"
				}
				d.SuggestedFixes = nil
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
