package migrate

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"

	"github.com/statuspatch/statuspatch/cmd/statuspatch-lint/internal/kube"
	"golang.org/x/tools/go/ast/inspector"
)

// A write moved onto a patcher made at its object's read, with a call
// between that read and the write handing the object to a function of
// the package whose status write of it stays (a helper kept for its field
// owner, its spec change, any reason): that write moves the
// resourceVersion and the status after the patcher's base is taken, and
// the patcher's Flush, finding a status its base does not hold, conflicts
// on every reconcile where the helper changes the status. Such a write
// stays, naming the call and the helper's write (Fix asks it of every
// route with an anchor). A helper's write that moves takes the caller's
// patcher (sharedPatcher) and is no other writer.

// keptBetween says why m's write stays: a call between its anchor and the
// write hands m.obj to a function of the package whose status write of
// its parameter does not move; "" when there is none. The object is
// handed by any of its names (originalias.go): &w, a pointer given it, a
// DeepCopy (the same object on the server: its write moves the
// resourceVersion too), a scope whose field holds it.
//
// An exported helper, of another package or of this one in a run of the
// whole module, whose write moves only when the module's driver moves its
// group (migrateexported.go): the fix rests on that move, and needs (nil:
// no driver) collects it (HelperNeed); the driver keeps the write when
// the group stays, or is in a package the run does not fix
// (lint.ResolveGroups).
func keptBetween(m *migration, files Files, ws []*Write, opts Options, needs *[]HelperNeed) string {
	if m == nil || m.anchor == nil || m.call == nil || m.obj == nil {
		return ""
	}
	root, ok := m.cursor(m.enclosingFunc())
	if !ok {
		return ""
	}
	between := m.runsBetween()
	names := newAliases(m.pass.TypesInfo, m.enclosingFunc(), m.obj)
	for cur := range root.Preorder((*ast.CallExpr)(nil)) {
		call := cur.Node().(*ast.CallExpr)
		if call.Pos() < m.anchor.End() || !between(cur) {
			continue
		}
		handed, copied, arg := "", "", -1
		for i, a := range call.Args {
			if name, ok := names.handed(a, m.obj); ok {
				handed, copied, arg = name, copyWrite(m, files, names, call, i, name), i
				break
			}
		}
		if handed == "" {
			continue
		}
		if fn := kube.CalledFunc(m.pass, call); fn != nil && fn.Pkg() != nil && fn.Pkg() != m.pass.Pkg {
			importedNeed(m, call, fn, arg, handed, needs)
			if copied != "" {
				return copied
			}
			continue
		}
		fd := m.funcDecl(kube.CalledFunc(m.pass, call))
		if fd == nil || fd.Body == nil || within(m.call, fd) {
			if copied != "" {
				return copied
			}
			continue
		}
		for _, o := range ws {
			oc, ok := files.Calls[o.Lparen]
			if !ok || o.Generated || !within(oc, fd) {
				continue
			}
			if _, busy := helperFixing.LoadOrStore(oc, struct{}{}); busy {
				continue // asked while its own Fix runs: it takes this patcher
			}
			fix, _ := Fix(m.pass, files, opts, ws, o)
			helperFixing.Delete(oc)
			if fix == nil {
				return fmt.Sprintf(keptHelperWhy, handed, types.ExprString(call.Fun), m.where(call.Pos()), m.where(oc.Pos()), "", m.where(m.anchor.Pos()))
			}
			if fn := kube.CalledFunc(m.pass, call); fn != nil && token.IsExported(fd.Name.Name) && opts.Module && needs != nil {
				// An exported helper's write moves with its group, or not
				// at all: the driver decides (lint.ResolveGroups).
				*needs = append(*needs, HelperNeed{Key: fn.Pkg().Path() + "." + fd.Name.Name,
					Reason: fmt.Sprintf(keptHelperWhy, handed, types.ExprString(call.Fun), m.where(call.Pos()), m.where(oc.Pos()), " (%s)", m.where(m.anchor.Pos()))})
			}
		}
		if copied != "" {
			return copied // a helper's write of the copy that is no status write kept
		}
	}
	return ""
}

// keptHelperWhy is the reason a write stays after a call handing its
// object to a helper whose status write stays: the object's name, the
// call, where, the helper's write, why it stays (" (...)" or ""), the
// read.
const keptHelperWhy = "%s is handed to %s at %s, whose status write at %s stays%s: it moves the resourceVersion and the status after the patcher's base is taken at %s, and this write's Flush would conflict whenever it changes the status (move that write first, or keep both)"

// A HelperNeed is an exported helper's move a write's fix rests on
// (keptBetween): the object is handed to it between the write's read and
// the write, and a raw write there would leave the patcher's base behind.
// The module's driver keeps the write when the helper's group (Key) does
// not move, Reason's %s saying why (lint.ResolveGroups).
type HelperNeed struct {
	Key    string
	Reason string
}

// importedNeed adds to needs the group of fn, a function of another
// package that call, between m's read and its write, hands m.obj to as
// its argument arg (named handed), when fn is an exported helper whose
// write the module's driver moves with its callers (HelperFact): m's fix
// rests on that move. Another package's function that writes the status
// otherwise keeps the write by its ParamsFact (checkMutations: "a write
// -fix does not move with the caller's"), an alone helper's by
// aloneHelperWrite.
func importedNeed(m *migration, call *ast.CallExpr, fn *types.Func, arg int, handed string, needs *[]HelperNeed) {
	var fact HelperFact
	if needs == nil || !m.pass.ImportObjectFact(fn.Origin(), &fact) || fact.ObjIndex != arg || fact.Alone && !m.aloneMoves {
		return
	}
	*needs = append(*needs, HelperNeed{Key: fn.Pkg().Path() + "." + fn.Name(),
		Reason: fmt.Sprintf(keptHelperWhy, handed, types.ExprString(call.Fun), m.where(call.Pos()), fact.At, " (%s)", m.where(m.anchor.Pos()))})
}

// copyWrite says why m's write stays when call, between its anchor and
// the write, writes a copy of m.obj (its argument i, named name): a
// client's write of it, or a call the analyzer's model finds may write
// it (Files.CallWrites). The copy is the object on the server: its write
// moves the resourceVersion there, not in m.obj, and the patcher made at
// the read would send the older one. "" when the argument is no copy, or
// the call does not write it.
func copyWrite(m *migration, files Files, names *aliases, call *ast.CallExpr, i int, name string) string {
	if al, ok := names.of(call.Args[i]); !ok || al.kind != aliasCopy || !m.deepCopyAt(al.at) {
		return "" // a value copied whole (c := *w) is migratevalue.go's
	}
	how := ""
	_, status := statusReceiver(call)
	switch verb := m.clientWrite(call); {
	case i == 1 && (status || verb == "Update" || verb == "Patch"):
		how = types.ExprString(call.Fun) + " writes it"
	case verb == "" && !status && files.CallWrites != nil:
		if w := files.CallWrites(call.Lparen, i); w != "?" {
			how = w
		}
	}
	if how == "" {
		return ""
	}
	return fmt.Sprintf("%s is handed to %s at %s, and %s: a copy is the object on the server, and its write moves the resourceVersion there, not in %s, after the patcher's base is taken at %s; this write's Flush would conflict whenever that write changes anything (read %s again after it, or write the status first)",
		name, types.ExprString(call.Fun), m.where(call.Pos()), how, m.obj.Name(), m.where(m.anchor.Pos()), m.obj.Name())
}

// deepCopyAt reports whether a DeepCopy call of the write's function is
// at pos (a copy's alias.at).
func (m *migration) deepCopyAt(pos token.Pos) bool {
	root, ok := m.cursor(m.enclosingFunc())
	if !ok {
		return false
	}
	for cur := range root.Preorder((*ast.CallExpr)(nil)) {
		if call := cur.Node().(*ast.CallExpr); call.Pos() == pos && deepCopied(m.pass.TypesInfo, call) != nil {
			return true
		}
	}
	return false
}

// deferred reports whether cur is in a defer statement (its call, or a
// function literal it calls).
func deferred(cur inspector.Cursor) bool {
	for range cur.Enclosing((*ast.DeferStmt)(nil)) {
		return true
	}
	return false
}

// runsBetween returns whether a call at cur, after m's anchor, may run
// between the anchor and m's write: before the write in the text, not
// deferred (a deferred one runs as the function returns, after the
// write) and on a path that reaches it (life.reaches); after it, when the write is deferred (the function's rest and
// the defers registered after it run first) or in a loop around the
// write and not the anchor (it runs before the next turn's write).
func (m *migration) runsBetween() func(inspector.Cursor) bool {
	wcur, ok := m.cursor(m.call)
	if !ok {
		return func(cur inspector.Cursor) bool { return cur.Node().Pos() < m.call.Pos() && !deferred(cur) }
	}
	writeDeferred := deferred(wcur)
	var loop ast.Node
	for c := range wcur.Enclosing((*ast.ForStmt)(nil), (*ast.RangeStmt)(nil), (*ast.FuncLit)(nil)) {
		if _, lit := c.Node().(*ast.FuncLit); lit || within(m.anchor, c.Node()) {
			break
		}
		loop = c.Node()
	}
	l := newLife(&m.site, m.obj)
	return func(cur inspector.Cursor) bool {
		call := cur.Node()
		switch {
		case call.Pos() < m.call.Pos():
			// on a path that reaches the write (not another case of a
			// switch, not an early return's branch)
			return !deferred(cur) && (l == nil || l.reaches(call.Pos(), m.call.Pos()))
		case call.Pos() < m.call.End():
			return false // the write's own arguments
		case writeDeferred:
			return true
		}
		return loop != nil && within(call, loop) && !deferred(cur)
	}
}

// appliedBetween says why m's write, a Patch (blind, where the handwritten
// Update would send the object's older resourceVersion too), stays: an
// apply of m.obj's object (an Apply of a configuration built from its
// fields, in the function or by a function, literal or method value
// given it) may run between its read and the write. The apply stays
// (beside: a merge write after it) and moves the resourceVersion on the
// server, not in m.obj, so the patcher made at the read, or at a base
// taken after the apply, sends a resourceVersion older than the apply's
// write and conflicts whenever the apply changed anything, where a blind
// patch was stored; "" when none may. The analyzer's model answers
// (Files.Applied), as it does for the lock it adds.
//
// A deferred write's "between" runs to the function's end (the model
// counts the calls after the defer statement): when the apply moves, its
// own move has decided that the deferred write runs only after it failed
// (beside: deferredAfter); when it stays, the write may run after it
// stored, and stays too.
func appliedBetween(m *migration, files Files, ws []*Write, opts Options) string {
	if m == nil || m.anchor == nil || m.call == nil || m.obj == nil || m.apply != nil || statusVerb(m.call) != "Patch" || files.Applied == nil {
		return "" // an Update sends the object's resourceVersion itself
	}
	cur, ok := m.cursor(m.call)
	if !ok {
		return ""
	}
	// The object's read: the Get before a base the patcher is made at.
	read := m.anchor
	var last ast.Stmt
	m.stmtLists(func(_ ast.Node, list []ast.Stmt) bool {
		for _, s := range list {
			if s.End() <= m.anchor.Pos() && (last == nil || s.Pos() > last.Pos()) && m.reads().isGetStmt(s) {
				last = s
			}
		}
		return true
	})
	if last != nil && m.get == nil && !m.reads().isGetStmt(m.anchor) {
		read = last
	}
	a := files.Applied(read.Pos(), read.End(), m.call.Lparen)
	if a == nil || deferred(cur) && applyMoves(m, files, ws, opts, a) {
		return ""
	}
	readAt := read.Pos()
	if a.Read.IsValid() {
		readAt = a.Read
	}
	at := "at " + m.where(a.Call)
	if a.Via != "" {
		given := "capturing " + m.obj.Name() + ","
		if call, ok := files.Calls[a.Call]; ok {
			names := newAliases(m.pass.TypesInfo, m.enclosingFunc(), m.obj)
			for _, arg := range call.Args {
				if name, ok := names.handed(arg, m.obj); ok {
					given = "given " + name
					break
				}
			}
		}
		at = fmt.Sprintf("by %s, %s at %s (its apply at %s)", a.Via, given, m.where(a.Call), m.where(a.Apply))
	}
	return fmt.Sprintf("%s is applied %s, after its read at %s and before this write: the apply moves the resourceVersion on the server, not in %s, and a patcher made at the read, or at a base taken after the apply, would send the older one and conflict whenever the apply changes anything; make the write an apply too, or read %s again after the apply",
		m.obj.Name(), at, m.where(readAt), m.obj.Name(), m.obj.Name())
}

// applyMoves reports whether the apply a, found before m's deferred
// write, moves onto a patcher in apply mode (its own Fix, which the
// deferred write's run decides: beside's deferredAfter); false when it
// is a helper's, or not a status write -fix knows.
func applyMoves(m *migration, files Files, ws []*Write, opts Options, a *Applied) bool {
	if a.Via != "" {
		return false
	}
	for _, o := range ws {
		call, ok := files.Calls[o.Lparen]
		if !ok || o.Generated || o.Lparen != a.Apply {
			continue
		}
		if _, busy := helperFixing.LoadOrStore(call, struct{}{}); busy {
			return true // asked while its own Fix runs: it decides
		}
		fix, _ := Fix(m.pass, files, opts, ws, o)
		helperFixing.Delete(call)
		return fix != nil
	}
	return false
}

// HoldsRefs reports whether a value of type t may hold a reference (a
// pointer, map, slice, channel, function or interface): the lint's
// readsFact asks it of a call's results (lint/lockbasefacts.go).
func HoldsRefs(t types.Type) bool { return holdsRefs(t) }
