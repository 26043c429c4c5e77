package lint

import (
	"go/token"
	"go/types"
	"slices"

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
// writes ws: the first call after the read reaching the write that
// applies the object, in the write's function or, for a write in a
// literal capturing the object, in the enclosing one (enclosingApply).
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
		var read ssa.CallInstruction
		for _, f := range []*ssa.Function{fn, fn.Parent()} {
			for c := range callsOf(f) {
				if p := c.Pos(); p >= readFrom && p < readTo && (read == nil || p < read.Pos()) {
					read = c
				}
			}
		}
		// A base taken in a literal whose object is read outside it: the
		// read is the enclosing function's last Get of it before.
		from, readAt := readTo, token.NoPos
		if g := outerGet(fn, root, readFrom); g != nil && (read == nil || calledName(read.Common()) != "Get") {
			read, from, readAt = g, g.Pos()+1, g.Pos()
		}
		var readInstr ssa.Instruction
		if read != nil {
			readInstr = read
		}
		var x, apply ssa.CallInstruction
		var via *ssa.Function
		for c := range callsOf(fn) {
			if _, deferred := c.(*ssa.Defer); deferred || c == w.instr || c.Pos() < from || !reachesAvoiding(c, w.instr, readInstr) || x != nil && x.Pos() < c.Pos() {
				continue // a deferred call runs after the write; a path through the read again reads the apply's resourceVersion
			}
			if v, a := applies(c, root, 2); a != nil {
				x, via, apply = c, v, a
			}
		}
		if x == nil {
			x, via, apply = enclosingApply(fn, root, from, w.instr)
		}
		if x == nil {
			return nil
		}
		found := &migrate.Applied{Call: x.Pos(), Apply: apply.Pos(), Read: readAt}
		if call, ok := fs.calls[x.Pos()]; ok && via != nil {
			found.Via = types.ExprString(call.Fun)
		}
		return found
	}
}

// callsOf yields the calls of fn (none when fn is nil).
func callsOf(fn *ssa.Function) func(func(ssa.CallInstruction) bool) {
	return func(yield func(ssa.CallInstruction) bool) {
		if fn == nil {
			return
		}
		for _, b := range fn.Blocks {
			for _, in := range b.Instrs {
				if c, ok := in.(ssa.CallInstruction); ok && !yield(c) {
					return
				}
			}
		}
	}
}

// captured is the enclosing function's value of root, a variable the
// literal fn captures; nil when root is none.
func captured(fn *ssa.Function, root ssa.Value) ssa.Value {
	fv, ok := root.(*ssa.FreeVar)
	i := slices.Index(fn.FreeVars, fv)
	if !ok || i < 0 || fn.Parent() == nil {
		return nil
	}
	for _, b := range fn.Parent().Blocks {
		for _, in := range b.Instrs {
			if mc, ok := in.(*ssa.MakeClosure); ok && mc.Fn == fn && i < len(mc.Bindings) {
				r, _ := objectRoot(mc.Bindings[i])
				return r
			}
		}
	}
	return nil
}

// gets reports whether c is a Get into the object r.
func gets(c ssa.CallInstruction, r ssa.Value) bool {
	return calledName(c.Common()) == "Get" && slices.ContainsFunc(c.Common().Args, func(a ssa.Value) bool { v, _ := objectRoot(a); return v == r })
}

// outerGet is the enclosing function's last Get of the object a literal
// fn captures (root) before pos, when fn itself gets none before it; nil
// otherwise.
func outerGet(fn *ssa.Function, root ssa.Value, pos token.Pos) ssa.CallInstruction {
	outer := captured(fn, root)
	if outer == nil {
		return nil
	}
	var last ssa.CallInstruction
	for c := range callsOf(fn) {
		if c.Pos() < pos && gets(c, root) {
			return nil
		}
	}
	for c := range callsOf(fn.Parent()) {
		if c.Pos() < pos && gets(c, outer) && (last == nil || c.Pos() > last.Pos()) {
			last = c
		}
	}
	return last
}

// enclosingApply finds, for a write y in a literal fn capturing the
// object (root), an apply of it in the enclosing function after from and
// before y, with no Get of it after the apply there nor in fn before y:
// the call, and the function and apply applies names.
func enclosingApply(fn *ssa.Function, root ssa.Value, from token.Pos, y ssa.Instruction) (ssa.CallInstruction, *ssa.Function, ssa.CallInstruction) {
	outer := captured(fn, root)
	if outer == nil {
		return nil, nil, nil
	}
	for c := range callsOf(fn) {
		if c.Pos() < y.Pos() && gets(c, root) {
			return nil, nil, nil // read again in the literal
		}
	}
	before := runsBefore(fn, y)
	var x, apply ssa.CallInstruction
	var via *ssa.Function
	for c := range callsOf(fn.Parent()) {
		if _, deferred := c.(*ssa.Defer); deferred || c.Pos() < from || !before(c) || x != nil && x.Pos() < c.Pos() {
			continue
		}
		if v, a := applies(c, outer, 2); a != nil {
			x, via, apply = c, v, a
		}
	}
	if x == nil {
		return nil, nil, nil
	}
	for c := range callsOf(fn.Parent()) {
		if c.Pos() > x.Pos() && before(c) && gets(c, outer) {
			return nil, nil, nil // read again after the apply
		}
	}
	return x, via, apply
}

// runsBefore returns whether a call of the function enclosing the literal
// fn may run before fn's instruction y: before it in the text, or, fn
// deferred there (defer func() { ... }()), after the defer statement on
// any path, as the deferred call runs when the function returns.
func runsBefore(fn *ssa.Function, y ssa.Instruction) func(ssa.CallInstruction) bool {
	var defers []*ssa.Defer
	for c := range callsOf(fn.Parent()) {
		if d, ok := c.(*ssa.Defer); ok {
			if mc, ok := d.Call.Value.(*ssa.MakeClosure); ok && mc.Fn == fn {
				defers = append(defers, d)
			}
		}
	}
	return func(c ssa.CallInstruction) bool {
		return c.Pos() < y.Pos() || slices.ContainsFunc(defers, func(d *ssa.Defer) bool { return reaches(d, c) })
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
				for c := range callsOf(fn) {
					byPos[c.Pos()] = c
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
