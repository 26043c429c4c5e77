package lint

import (
	"go/token"
	"go/types"

	"github.com/statuspatch/statuspatch/cmd/statuspatch-lint/lint/internal/migrate"
	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ssa"
)

// -fix asks the lock's model of what a call does to the object (on SSA:
// lockbasecalls.go) the questions it used to answer again on the syntax,
// by the positions it knows: whether an apply of the object written at a
// status write may run after the object's read and before that write
// (migrate.Files.Applied), and how a call given the object may write it
// (Files.CallWrites). One model answers both: the lint's "no lock
// after an apply" (appliedBefore) and -fix's "no patcher made before an
// apply" (migratekeptbetween.go's appliedBetween), each seeing the
// package's functions, literals capturing the object and method values.

// appliedQuery returns migrate.Files.Applied over the package's status
// writes ws.
func (fs *fileSet) appliedQuery(ws []*write) func(readFrom, readTo, at token.Pos) *migrate.Applied {
	byPos := map[token.Pos]*write{}
	for _, w := range ws {
		byPos[w.pos] = w
	}
	return func(readFrom, readTo, at token.Pos) *migrate.Applied {
		w := byPos[at]
		if w == nil || w.instr == nil || len(w.args) < 2 {
			return nil
		}
		fn := w.instr.Parent()
		root, _ := objectRoot(w.args[1])
		// The read: its first call (the Get, or the DeepCopy of a base).
		var read ssa.Instruction
		calls := func(yield func(ssa.CallInstruction) bool) {
			for _, b := range fn.Blocks {
				for _, in := range b.Instrs {
					if c, ok := in.(ssa.CallInstruction); ok && !yield(c) {
						return
					}
				}
			}
		}
		for c := range calls {
			if p := c.Pos(); p >= readFrom && p < readTo && (read == nil || p < read.Pos()) {
				read = c
			}
		}
		var found *migrate.Applied
		for x := range calls {
			if _, deferred := x.(*ssa.Defer); deferred || x == w.instr || x.Pos() < readTo || !reachesAvoiding(x, w.instr, read) {
				continue // a deferred call runs after the write; a path through the read again reads the apply's resourceVersion
			}
			via, apply := applies(x, root, 2)
			if apply == nil || found != nil && found.Call < x.Pos() {
				continue
			}
			found = &migrate.Applied{Call: x.Pos(), Apply: apply.Pos()}
			if call, ok := fs.calls[x.Pos()]; ok && via != nil {
				found.Via = types.ExprString(call.Fun)
			}
		}
		return found
	}
}

// callWritesQuery returns migrate.Files.CallWrites over the package's
// functions: how the call at lparen may write the object it is given as
// its argument arg (by the call's syntax, the receiver not counted), by
// callWrite; "" when it does not (a function of another package whose
// analysis saw it only read it: lockbasefacts.go).
func (fs *fileSet) callWritesQuery(pass *analysis.Pass, funcs []*ssa.Function) func(lparen token.Pos, arg int) string {
	var byPos map[token.Pos]ssa.CallInstruction
	return func(lparen token.Pos, arg int) string {
		if byPos == nil {
			byPos = map[token.Pos]ssa.CallInstruction{}
			for _, fn := range funcs {
				for _, b := range fn.Blocks {
					for _, in := range b.Instrs {
						if c, ok := in.(ssa.CallInstruction); ok {
							byPos[c.Pos()] = c
						}
					}
				}
			}
		}
		x, ok := byPos[lparen]
		call, found := fs.calls[lparen]
		if !ok || !found || arg < 0 || arg >= len(call.Args) {
			return "?"
		}
		cc := x.Common()
		if f := cc.StaticCallee(); !cc.IsInvoke() && f != nil && f.Signature.Recv() != nil {
			arg++ // the receiver is the first argument
		}
		if arg >= len(cc.Args) {
			return "?"
		}
		root, _ := objectRoot(cc.Args[arg])
		return callWrite(pass, x, root, 3)
	}
}
