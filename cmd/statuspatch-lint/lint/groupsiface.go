package lint

import (
	"fmt"
	"go/token"
	"path/filepath"
	"slices"

	"github.com/statuspatch/statuspatch/cmd/statuspatch-lint/lint/internal/migrate"
	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/checker"
)

// regroup keeps what rests on the fixes ResolveIfaceCalls dropped after
// ResolveGroups resolved the groups (dropped: their positions, each with
// why): an exported helper's group whose write's fix went stays, and so
// does one whose caller passes the patcher of a write whose fix went;
// a write whose fix rests on a group that stays keeps its lock
// (migrate.HelperNeed), and so on until nothing more is kept. At e.g.
// an exported conditions helper whose obj.GetConditions() runs a spec
// changer, its callers' later writes moved while its Update stayed
// between: each Flush then conflicted on the version it moved.
func regroup(graph *checker.Graph, dropped map[token.Pos]string) {
	type need struct {
		d     *analysis.Diagnostic
		needs []migrate.HelperNeed
		lock  []analysis.SuggestedFix
	}
	helpers := map[string]*analysis.Diagnostic{}
	byKey := map[string][]migrate.GroupMember{}
	stayed := map[string]string{}
	var writes []need
	for _, act := range graph.Roots {
		res, ok := act.Result.(*Result)
		if !ok {
			continue
		}
		for _, m := range res.Members {
			i := slices.IndexFunc(act.Diagnostics, func(d analysis.Diagnostic) bool { return d.Pos == m.Pos })
			switch {
			case i < 0 || m.Calls != nil:
			case m.Helper:
				helpers[m.Key] = &act.Diagnostics[i]
				if why, ok := dropped[m.Pos]; ok {
					stayed[m.Key] = why
				}
			case m.Needs != nil:
				writes = append(writes, need{&act.Diagnostics[i], m.Needs, res.Locks[m.Pos]})
			}
		}
	}
	for act := range graph.All() {
		if res, ok := act.Result.(*Result); ok && act.Err == nil {
			for _, m := range res.Members {
				if !m.Helper && m.Calls == nil && m.Needs == nil && m.Tests == nil {
					byKey[m.Key] = append(byKey[m.Key], m)
				}
			}
		}
	}
	kept := map[token.Pos]bool{}
	for p := range dropped {
		kept[p] = true
	}
	for changed := true; changed; {
		changed = false
		for _, w := range writes {
			if kept[w.d.Pos] || w.d.SuggestedFixes == nil {
				continue
			}
			for _, n := range w.needs {
				if y, ok := stayed[n.Key]; ok {
					w.d.Message += " (not moved to the patcher: " + fmt.Sprintf(n.Reason, y) + ")"
					w.d.SuggestedFixes, kept[w.d.Pos], changed = w.lock, true, true
					break
				}
			}
		}
		for key, d := range helpers {
			for _, m := range byKey[key] {
				if i := slices.IndexFunc(m.Shares, func(p token.Pos) bool { return kept[p] }); i >= 0 && d.SuggestedFixes != nil {
					at := graph.Roots[0].Package.Fset.Position(m.Shares[i])
					stayed[key] = fmt.Sprintf("its caller's own status write at %s:%d stays, and the patcher it would pass is not made", filepath.Base(at.Filename), at.Line)
					d.Message += " (not moved to the patcher: " + stayed[key] + ")"
					d.SuggestedFixes, changed = nil, true
				}
			}
		}
	}
}
