package lint

import (
	"fmt"
	"go/token"
	"regexp"
	"strconv"

	"github.com/statuspatch/statuspatch/cmd/statuspatch-lint/lint/internal/migrate"
	"golang.org/x/tools/go/analysis"
)

// No finding is erased by -fix: a write reported as a replay stays,
// reported, with the reason and what to do. A Flush would carry the same
// decision, made before the re-read, and hide it (a real operator had 14
// such writes moved and then called optimistic); the Retry -fix makes
// (migrate's migrateretry.go) takes into mutate the decision after the
// read, not a value decided before it, which mutate would replay as well.
// The migration is asked for each replayed write first; one it would move
// is withheld from it (Movable false), so the writes it moves together
// with stay too.

// gate is what the replay gate withheld: each kept write's reason, and
// the kept lines by file, for the reasons of the writes that move with
// them.
type gate struct {
	kept  map[*write]string
	lines map[string]map[int]bool
}

// gateReplays withholds from the migration each replayed handwritten
// write it would move, and returns why each stays.
func gateReplays(pass *analysis.Pass, files *fileSet, cfg Config, ws []*write, mws []*migrate.Write, reps []replayed) gate {
	g := gate{kept: map[*write]string{}, lines: map[string]map[int]bool{}}
	mfiles := files.migrateFiles()
	for i, w := range ws {
		mw := mws[i]
		if reps[i].why == "" || w.generated || !mw.Movable || mw.Patcher == nil {
			continue
		}
		fix, _ := planSafely(func() (*analysis.SuggestedFix, string) {
			return fixPlanner(pass, mfiles, migrate.Options{Audit: cfg.Audit, TestRefs: cfg.TestRefs}, mws, mw)
		})
		if fix == nil {
			continue // kept for the migration's own reason (planMove's, a failure's too)
		}
		mw.Movable = false
		g.kept[w] = keptReplay(pass.Fset, reps[i], mw.Patcher.Type)
		at := pass.Fset.Position(files.callPos(w.pos))
		if g.lines[at.Filename] == nil {
			g.lines[at.Filename] = map[int]bool{}
		}
		g.lines[at.Filename][at.Line] = true
	}
	return g
}

// keptReplay is why a replayed write stays: the line its status is
// assigned at, the re-read's, and what to do.
func keptReplay(fset *token.FileSet, r replayed, patcherType string) string {
	where := ""
	if r.assign.IsValid() {
		where = fmt.Sprintf(" at line %d", fset.Position(r.assign).Line)
	}
	reread := ""
	if r.reread.IsValid() {
		reread = fmt.Sprintf(" at line %d", fset.Position(r.reread).Line)
	}
	return "the status assigned" + where + " is decided before the re-read" + reread +
		", and Flush would write the same decision: move the decision into " + patcherType +
		".Retry's mutate, which decides again from the object it re-reads on a conflict"
}

// groupKept matches the migration's reason for a write that moves with a
// write it does not move.
var groupKept = regexp.MustCompile(`at line (\d+) is not of a shape -fix moves`)

// explain names the replay in the reason of a write kept because a
// replayed write it moves with is kept.
func (g gate) explain(pass *analysis.Pass, pos token.Pos, why string) string {
	lines := g.lines[pass.Fset.Position(pos).Filename]
	if len(lines) == 0 {
		return why
	}
	return groupKept.ReplaceAllStringFunc(why, func(m string) string {
		n, _ := strconv.Atoi(groupKept.FindStringSubmatch(m)[1])
		if !lines[n] {
			return m
		}
		return "at line " + strconv.Itoa(n) + " replays a status decided before the re-read and stays"
	})
}
