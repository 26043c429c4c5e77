package migrate

import (
	"fmt"
	"go/ast"
	"go/types"
	"slices"

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
// its parameter does not move; "" when there is none.
func keptBetween(m *migration, files Files, ws []*Write, opts Options) string {
	if m == nil || m.anchor == nil || m.call == nil || m.obj == nil {
		return ""
	}
	root, ok := m.cursor(m.enclosingFunc())
	if !ok {
		return ""
	}
	for cur := range root.Preorder((*ast.CallExpr)(nil)) {
		call := cur.Node().(*ast.CallExpr)
		if call.Pos() < m.anchor.End() || call.Pos() >= m.call.Pos() || !slices.ContainsFunc(call.Args, m.isObj) {
			continue
		}
		if deferred(cur) {
			continue // runs as the function returns, after the write
		}
		fd := m.funcDecl(kube.CalledFunc(m.pass, call))
		if fd == nil || fd.Body == nil || within(m.call, fd) {
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
				return fmt.Sprintf("%s is handed to %s at %s, whose status write at %s stays: it moves the resourceVersion and the status after the patcher's base is taken at %s, and this write's Flush would conflict whenever it changes the status (move that write first, or keep both)",
					m.obj.Name(), types.ExprString(call.Fun), m.where(call.Pos()), m.where(oc.Pos()), m.where(m.anchor.Pos()))
			}
		}
	}
	return ""
}

// deferred reports whether cur is in a defer statement (its call, or a
// function literal it calls).
func deferred(cur inspector.Cursor) bool {
	for range cur.Enclosing((*ast.DeferStmt)(nil)) {
		return true
	}
	return false
}
