package lint

import (
	"fmt"
	"go/ast"
	"go/token"
	"path/filepath"
	"slices"
	"strings"

	"golang.org/x/tools/go/analysis"
)

// keepApart moves with each write -ci reports the writes -ci does not
// report (Result.Unreported: its object's other writes in the function, a
// helper's of the package) whose moves share an edit of its patcher (its
// making at the read), and those sharing one with them: -ci -fix applies
// only the reported writes' fixes, and a patcher made beside raw writes
// of its object would be behind each of them, its next write a conflict
// (issue 80: T's project A, a blind MergeFrom moved alone beside three
// Updates). Until s105 the reported write was locked in place instead:
// under a real manager that lock conflicted behind the cached re-Get,
// and the next reconcile decided again. The moved writes are recorded
// in res.Along, the reported write's message names them.
func keepApart(pass *analysis.Pass, diags []analysis.Diagnostic, res *Result) {
	taken := map[token.Pos]bool{}
	for i := range diags {
		d := &diags[i]
		if _, planned := res.Locks[d.Pos]; !planned || len(d.SuggestedFixes) != 1 {
			continue
		}
		fix := d.SuggestedFixes[0]
		var along []analysis.Diagnostic
		for grew := true; grew; {
			grew = false
			for _, u := range res.Unreported {
				if taken[u.Pos] || len(u.SuggestedFixes) != 1 || !sharesEdit(pass, fix, u.SuggestedFixes[0]) {
					continue
				}
				taken[u.Pos], grew = true, true
				along = append(along, u)
				fix.TextEdits = addEdits(fix.TextEdits, u.SuggestedFixes[0].TextEdits)
			}
		}
		if len(along) == 0 {
			continue
		}
		fix.TextEdits = sortEdits(pass.Fset, fix.TextEdits)
		d.SuggestedFixes = []analysis.SuggestedFix{fix}
		if res.Along == nil {
			res.Along = map[token.Pos][]token.Pos{}
		}
		var with []string
		for _, u := range along {
			res.Along[d.Pos] = append(res.Along[d.Pos], u.Pos)
		}
		slices.Sort(res.Along[d.Pos])
		for _, u := range res.Along[d.Pos] {
			with = append(with, linePos(pass.Fset, d.Pos, u))
		}
		d.Message += " (-fix moves it with " + movedAlong(with) + ", which -ci does not report, onto one patcher, and so does -ci -fix)"
		d.SuggestedFixes[0].Message += " (with " + movedAlong(with) + ", which -ci does not report)"
	}
}

// movedAlong names the writes -ci does not report that move with a
// reported one, by line ("line 12" in its file, "status.go:16" in
// another).
func movedAlong(with []string) string {
	with = slices.Compact(with)
	lines := true
	for _, w := range with {
		lines = lines && strings.HasPrefix(w, "line ")
	}
	if lines && len(with) > 1 {
		for i := range with {
			with[i] = strings.TrimPrefix(with[i], "line ")
		}
		with[0] = "lines " + with[0]
	}
	at := with[0]
	if n := len(with); n > 1 {
		at = strings.Join(with[:n-1], ", ") + " and " + with[n-1]
	}
	what := "write"
	if len(with) > 1 {
		what = "writes"
	}
	return "the status " + what + " at " + at
}

// linePos names p as seen from at: "line N" in at's file, else
// "file.go:N".
func linePos(fset *token.FileSet, at, p token.Pos) string {
	a, b := fset.Position(at), fset.Position(p)
	if at.IsValid() && a.Filename == b.Filename {
		return fmt.Sprintf("line %d", b.Line)
	}
	return fmt.Sprintf("%s:%d", filepath.Base(b.Filename), b.Line)
}

// addEdits appends to edits those of more it does not hold already (the
// patcher's making, an import, which moves of one object share).
func addEdits(edits, more []analysis.TextEdit) []analysis.TextEdit {
	edits = slices.Clip(edits)
	for _, e := range more {
		if !slices.ContainsFunc(edits, func(o analysis.TextEdit) bool {
			return o.Pos == e.Pos && o.End == e.End && string(o.NewText) == string(e.NewText)
		}) {
			edits = append(edits, e)
		}
	}
	return edits
}

// sortEdits orders edits by file and offset.
func sortEdits(fset *token.FileSet, edits []analysis.TextEdit) []analysis.TextEdit {
	slices.SortStableFunc(edits, func(a, b analysis.TextEdit) int {
		pa, pb := fset.Position(a.Pos), fset.Position(b.Pos)
		if pa.Filename != pb.Filename {
			return strings.Compare(pa.Filename, pb.Filename)
		}
		return pa.Offset - pb.Offset
	})
	return edits
}

// sharesEdit reports whether fixes a and b make one edit the same,
// outside the file's package clause and imports (which every move in the
// file may add to).
func sharesEdit(pass *analysis.Pass, a, b analysis.SuggestedFix) bool {
	for _, e := range a.TextEdits {
		if inHeader(pass, e.Pos) {
			continue
		}
		if slices.ContainsFunc(b.TextEdits, func(o analysis.TextEdit) bool {
			return o.Pos == e.Pos && o.End == e.End && string(o.NewText) == string(e.NewText)
		}) {
			return true
		}
	}
	return false
}

// inHeader reports whether pos is before its file's first declaration
// that is not an import.
func inHeader(pass *analysis.Pass, pos token.Pos) bool {
	for _, f := range pass.Files {
		if pos < f.FileStart || pos > f.FileEnd {
			continue
		}
		for _, d := range f.Decls {
			if g, ok := d.(*ast.GenDecl); !ok || g.Tok != token.IMPORT {
				return pos < d.Pos()
			}
		}
		return true
	}
	return false
}
