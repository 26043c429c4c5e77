package lint

import (
	"fmt"
	"go/ast"
	"go/token"
	"maps"
	"path/filepath"
	"slices"
	"strings"

	"github.com/statuspatch/statuspatch/cmd/statuspatch-lint/lint/internal/migrate"
	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/checker"
)

// Result is what the analyzer gives a driver beside its findings: the
// package's parts of the fix groups a driver that analyzes the whole
// module resolves (ResolveGroups; Config.Module).
type Result struct {
	Members []migrate.GroupMember
	// Unreported are -ci's writes it does not report (optimistic or
	// allowed), each with its fix as -fix plans it: an exported helper's
	// group resolves as -fix's does, and a reported caller's reason says
	// so (resolveNeeds).
	Unreported []analysis.Diagnostic
	// Locks are -ci's lock fixes (nil: none) of the reported writes it
	// plans to move, by position: the fix when that move does not happen
	// (resolveNeeds, keepApart).
	Locks map[token.Pos][]analysis.SuggestedFix
}

// Outside says why a helper (the function name of package pkg) may be
// called where the graph did not analyze: a test file of the module, or
// a package of the module not in analyzed; "" when there is none.
type Outside func(pkg, name string, analyzed map[string]bool) string

// ResolveGroups resolves the fix groups of a graph that ModuleAnalyzer
// analyzed: an exported helper's write keeps its fix, with its callers'
// edits in every package added, when every caller can take the patcher
// and outside finds no use the graph did not see; else the fix goes and
// the finding says why, naming the helper's API to move it by hand.
func ResolveGroups(graph *checker.Graph, outside Outside) {
	analyzed := map[string]bool{}
	byKey := map[string][]migrate.GroupMember{}
	for act := range graph.All() {
		res, ok := act.Result.(*Result)
		if !ok || act.Err != nil {
			continue
		}
		analyzed[act.Package.PkgPath] = true
		for _, m := range res.Members {
			if m.Calls != nil || m.Needs != nil {
				continue // ResolveIfaceCalls', resolveNeeds'
			}
			byKey[m.Key] = append(byKey[m.Key], m)
		}
	}
	helpers := map[string]*analysis.Diagnostic{}
	stays := map[string]string{}
	for _, act := range graph.Roots {
		if res, ok := act.Result.(*Result); ok {
			resolve(act.Package.Fset, act.Diagnostics, res.Members, byKey, func(pkg, name string) string { return outside(pkg, name, analyzed) }, helpers, stays)
		}
	}
	unreported := map[string]bool{}
	for _, act := range graph.Roots {
		if res, ok := act.Result.(*Result); ok && len(res.Unreported) > 0 {
			before := maps.Clone(helpers)
			resolve(act.Package.Fset, res.Unreported, res.Members, byKey, func(pkg, name string) string { return outside(pkg, name, analyzed) }, helpers, stays)
			for key := range helpers {
				if _, ok := before[key]; !ok {
					unreported[key] = true
				}
			}
		}
	}
	resolveNeeds(graph, byKey, helpers, stays, unreported)
}

// resolveNeeds keeps each write whose fix rests on an exported helper's
// move (migrate.HelperNeed) that does not happen: the helper's group
// stays, or the helper's package is not one the run fixes (its write
// stays raw, between the patcher's base and the write). A group whose
// caller passes the patcher of a write kept so stays too, and so on
// until nothing more is kept. helpers are the roots' helper findings by
// group key, stays why each group that stays does; unreported the keys
// of helpers whose write -ci does not report (Result.Unreported): -ci
// -fix does not move them, -fix does when their group moves.
func resolveNeeds(graph *checker.Graph, byKey map[string][]migrate.GroupMember, helpers map[string]*analysis.Diagnostic, stays map[string]string, unreported map[string]bool) {
	type need struct {
		d     *analysis.Diagnostic
		needs []migrate.HelperNeed
		lock  []analysis.SuggestedFix
	}
	var writes []need
	roots := map[string]bool{}
	for _, act := range graph.Roots {
		roots[act.Package.PkgPath] = true
		if res, ok := act.Result.(*Result); ok {
			for _, m := range res.Members {
				if i := slices.IndexFunc(act.Diagnostics, func(d analysis.Diagnostic) bool { return d.Pos == m.Pos && len(d.SuggestedFixes) == 1 }); m.Needs != nil && i >= 0 {
					writes = append(writes, need{&act.Diagnostics[i], m.Needs, res.Locks[m.Pos]})
				}
			}
		}
	}
	why := func(key string) string {
		pkg, _ := splitKey(key)
		switch d := helpers[key]; {
		case d == nil && roots[pkg]:
			return "" // no group: its own fix moves it, as the write's analysis asked
		case d == nil:
			return "package " + pkg + " is not among the packages this run fixes; -fix on ./... at the module's root moves them together when every caller of it can take the patcher"
		case len(d.SuggestedFixes) == 0:
			return stays[key]
		case unreported[key]:
			return "-ci does not report it, and -ci -fix moves only the writes -ci reports; -fix without -ci moves them together"
		}
		return ""
	}
	kept := map[token.Pos]bool{}
	for changed := true; changed; {
		changed = false
		for _, w := range writes {
			for _, n := range w.needs {
				if kept[w.d.Pos] || w.d.SuggestedFixes == nil {
					break
				}
				if y := why(n.Key); y != "" {
					w.d.Message += " (not moved to the patcher: " + fmt.Sprintf(n.Reason, y) + ")"
					w.d.SuggestedFixes, kept[w.d.Pos], changed = w.lock, true, true
				}
			}
		}
		for key, d := range helpers {
			for _, m := range byKey[key] {
				if i := slices.IndexFunc(m.Shares, func(p token.Pos) bool { return kept[p] }); i >= 0 && d.SuggestedFixes != nil {
					at := graph.Roots[0].Package.Fset.Position(m.Shares[i])
					stays[key] = fmt.Sprintf("its caller's own status write at %s:%d stays, and the patcher it would pass is not made", filepath.Base(at.Filename), at.Line)
					d.Message += " (not moved to the patcher: " + stays[key] + ")"
					d.SuggestedFixes, changed = nil, true
				}
			}
		}
	}
}

// resolve resolves the groups of one package's helpers (its members
// with Helper set) in its diagnostics, given every member of the graph by
// key and what outside finds of each helper's uses the graph did not see.
func resolve(fset *token.FileSet, diags []analysis.Diagnostic, members []migrate.GroupMember, byKey map[string][]migrate.GroupMember, outside func(pkg, name string) string, helpers map[string]*analysis.Diagnostic, stays map[string]string) {
	for _, h := range members {
		if !h.Helper {
			continue
		}
		i := slices.IndexFunc(diags, func(d analysis.Diagnostic) bool { return d.Pos == h.Pos })
		if i < 0 {
			continue
		}
		d := &diags[i]
		helpers[h.Key] = d
		if len(d.SuggestedFixes) != 1 {
			stays[h.Key] = "its finding says why"
			continue
		}
		edits, why := groupEdits(fset, byKey[h.Key])
		if why == "" && edits != nil {
			why = outside(splitKey(h.Key))
		}
		if why != "" || edits == nil {
			stays[h.Key] = why
			if why == "" {
				stays[h.Key] = "no package of the module calls it"
			}
			// No caller in the module is the package's own finding.
			if stays := h.Stays(why); stays != "" {
				d.Message += " (not moved to the patcher: " + stays + ")"
			}
			d.SuggestedFixes = nil
			continue
		}
		fix := d.SuggestedFixes[0]
		fix.TextEdits = append(slices.Clip(fix.TextEdits), edits...)
		d.SuggestedFixes[0] = fix
	}
}

// groupEdits returns the edits of a group's callers, or why one cannot
// move (the first by position); nil and "" when it has none.
func groupEdits(fset *token.FileSet, members []migrate.GroupMember) ([]analysis.TextEdit, string) {
	var edits []analysis.TextEdit
	var whys []string
	for _, m := range members {
		switch {
		case m.Helper:
		case m.Why != "":
			whys = append(whys, m.Why)
		default:
			// A member with nothing to edit (a callback's caller,
			// migratecallback.go) moves: the edits are not nil.
			edits = append(slices.Clip(edits), m.Edits...)
			if edits == nil {
				edits = []analysis.TextEdit{}
			}
		}
	}
	if len(whys) > 0 {
		slices.Sort(whys)
		return nil, whys[0]
	}
	slices.SortFunc(edits, func(a, b analysis.TextEdit) int {
		pa, pb := fset.Position(a.Pos), fset.Position(b.Pos)
		if pa.Filename != pb.Filename {
			return strings.Compare(pa.Filename, pb.Filename)
		}
		return pa.Offset - pb.Offset
	})
	return edits, ""
}

// splitKey splits a group's key, <package path>.<name>.
func splitKey(key string) (pkg, name string) {
	i := strings.LastIndexByte(key, '.')
	return key[:i], key[i+1:]
}

// keepApart locks in place each write -ci reports whose move shares an
// edit of its patcher (its making at the read) with the move of a write
// -ci does not report (Result.Unreported: its object's other writes in
// the function, a helper's of the package): -ci -fix applies only the
// reported writes' fixes, and the patcher would be made beside raw
// writes of its object, each leaving its base behind, its next write a
// conflict (issue 80: T's project A, a blind MergeFrom moved alone
// beside three Updates). -fix without -ci moves them together.
func keepApart(pass *analysis.Pass, diags []analysis.Diagnostic, res *Result) {
	for i := range diags {
		d := &diags[i]
		lock, planned := res.Locks[d.Pos]
		if !planned || len(d.SuggestedFixes) != 1 {
			continue
		}
		at := pass.Fset.Position(d.Pos)
		var others []token.Position
		for _, u := range res.Unreported {
			if len(u.SuggestedFixes) == 1 && sharesEdit(pass, d.SuggestedFixes[0], u.SuggestedFixes[0]) {
				others = append(others, pass.Fset.Position(u.Pos))
			}
		}
		slices.SortFunc(others, func(a, b token.Position) int {
			if a.Filename != b.Filename {
				return strings.Compare(a.Filename, b.Filename)
			}
			return a.Offset - b.Offset
		})
		var with []string
		for _, p := range others {
			if p.Filename == at.Filename {
				with = append(with, fmt.Sprint(p.Line))
			} else {
				with = append(with, fmt.Sprintf("%s:%d", filepath.Base(p.Filename), p.Line))
			}
		}
		if len(with) == 0 {
			continue
		}
		why := "the status write at line " + with[0] + " moves with it onto one patcher, and -ci does not report it"
		if n := len(with); n > 1 {
			why = "the status writes at lines " + strings.Join(with[:n-1], ", ") + " and " + with[n-1] + " move with it onto one patcher, and -ci does not report them"
		}
		d.Message += " (not moved to the patcher: " + why + " (-ci -fix moves only the writes -ci reports; -fix without -ci moves them together))"
		d.SuggestedFixes = lock
		delete(res.Locks, d.Pos)
		res.Members = slices.DeleteFunc(res.Members, func(m migrate.GroupMember) bool { return m.Pos == d.Pos })
	}
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
