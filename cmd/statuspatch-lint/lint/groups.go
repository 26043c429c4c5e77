package lint

import (
	"fmt"
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
	// Along are, by a reported write's position, the writes -ci does not
	// report whose moves its fix under -ci holds (keepApart).
	Along map[token.Pos][]token.Pos
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
	byPos := map[token.Pos]int{}
	roots := map[string]bool{}
	along := map[token.Pos]token.Pos{} // an unreported write moved with a reported one: that one
	unrep := map[token.Pos]bool{}
	for _, act := range graph.Roots {
		roots[act.Package.PkgPath] = true
		if res, ok := act.Result.(*Result); ok {
			for p, ps := range res.Along {
				for _, u := range ps {
					along[u] = p
				}
			}
			for _, u := range res.Unreported {
				unrep[u.Pos] = true
			}
			for i := range act.Diagnostics {
				d := &act.Diagnostics[i]
				if len(d.SuggestedFixes) != 1 {
					continue
				}
				// Its needs, and those of the writes it moves along.
				var needs []migrate.HelperNeed
				for _, m := range res.Members {
					if m.Pos == d.Pos || slices.Contains(res.Along[d.Pos], m.Pos) {
						needs = append(needs, m.Needs...)
					}
				}
				byPos[d.Pos] = len(writes)
				writes = append(writes, need{d, needs, res.Locks[d.Pos]})
			}
		}
	}
	// A helper's caller passing the patcher of writes -ci -fix moves
	// (Shares): they move only with the helper's group. By key: a write's
	// first need that stays names its reason, and its needs fold in order.
	for _, key := range slices.Sorted(maps.Keys(byKey)) {
		for _, m := range byKey[key] {
			for _, p := range m.Shares {
				if r, ok := along[p]; ok {
					p = r
				}
				if i, ok := byPos[p]; ok && unreported[key] && !slices.ContainsFunc(writes[i].needs, func(n migrate.HelperNeed) bool { return n.Key == key }) {
					writes[i].needs = append(writes[i].needs, migrate.HelperNeed{Key: key, Reason: "its patcher is passed to " + key[strings.LastIndexByte(key, '/')+1:] + ", whose status write moves with it, and %s"})
				}
			}
		}
	}
	writes = slices.DeleteFunc(writes, func(w need) bool { return w.needs == nil })
	kept := map[token.Pos]bool{}
	// stranded: a caller's own write the helper's group would pass the
	// patcher of, that -ci -fix leaves raw (-ci does not report it, and
	// no reported write moves it along).
	stranded := func(key string) string {
		for _, m := range byKey[key] {
			for _, p := range m.Shares {
				if r, ok := along[p]; unrep[p] && (!ok || kept[r]) {
					return "its caller's own status write at " + linePos(graph.Roots[0].Package.Fset, token.NoPos, p) + ", which -ci does not report, would share the patcher it passes; -ci -fix moves only the writes -ci reports and those of their objects' patchers, -fix without -ci moves them together"
				}
			}
		}
		return ""
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
			return stranded(key)
		}
		return ""
	}
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
	// -ci -fix applies the reported writes' fixes only: a helper's group
	// -ci does not report, that a reported write's move rests on, moves
	// in the fix of the first such write (its callers' edits with it).
	folded := map[string]bool{}
	fset := graph.Roots[0].Package.Fset
	for _, w := range writes {
		for _, n := range w.needs {
			d := helpers[n.Key]
			if kept[w.d.Pos] || !unreported[n.Key] || d == nil || len(d.SuggestedFixes) != 1 {
				continue
			}
			along := n.Key[strings.LastIndexByte(n.Key, '/')+1:] + "'s status write at " + linePos(fset, token.NoPos, d.Pos) + " and its callers'"
			w.d.Message += " (-fix moves it with " + along + ", which -ci does not report, onto one patcher, and so does -ci -fix)"
			if !folded[n.Key] {
				folded[n.Key] = true
				fix := w.d.SuggestedFixes[0]
				fix.TextEdits = sortEdits(fset, addEdits(fix.TextEdits, d.SuggestedFixes[0].TextEdits))
				fix.Message += " (with " + along + ", which -ci does not report)"
				w.d.SuggestedFixes = []analysis.SuggestedFix{fix}
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
	return sortEdits(fset, edits), ""
}

// splitKey splits a group's key, <package path>.<name>.
func splitKey(key string) (pkg, name string) {
	i := strings.LastIndexByte(key, '.')
	return key[:i], key[i+1:]
}
