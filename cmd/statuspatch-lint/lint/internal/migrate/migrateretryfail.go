package migrate

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
)

// A status read after a failed write (issue 80, s102's review). A failed
// Update, or a failed Flush, leaves the object as the code changed it; a
// failed Retry leaves it as it was before the attempt that failed, or as
// re-read when every attempt conflicted (patcher/retry.go). Code run
// after the write fails that reads the status would see another value
// after -fix: the decision moves into Retry only when the write's error
// path returns (`if err := write; err != nil { return ... }`, `return
// write`, `err := write` then such an if) without reading the status, or
// when nothing run after it reads it; otherwise it stays before a Flush,
// named.

// failedReadWhy says why p may not move: the line that reads the
// object's status after the write failed; "" when none.
func failedReadWhy(r retries, p *retryPlan) string {
	fn := r.enclosingFunc()
	seen := map[*types.Func]bool{}
	for _, span := range failedSpans(r, p.write, fn) {
		at := token.NoPos
		r.eachUse(fn, r.obj, span[0], span[1], func(stack []ast.Node, id *ast.Ident) string {
			if readsStatusAt(r, stack, id, seen) {
				at = id.Pos()
				return "found"
			}
			return ""
		})
		if at.IsValid() {
			return fmt.Sprintf("%s reads %s's status when the write fails, which a failed Retry restores to before the decision (a failed write keeps it)", r.where(at), r.obj.Name())
		}
	}
	return ""
}

// failedSpans are the spans of fn run after write fails: a returning
// error branch's body (with a return's other results after the call),
// else everything after the write. A deferred call's read is not one:
// it runs as the function returns, on the object as Retry left it, what
// the patcher last read (liferetry.go).
func failedSpans(r retries, write ast.Stmt, fn ast.Node) [][2]token.Pos {
	var spans [][2]token.Pos
	start := write.End()
	switch w := write.(type) {
	case *ast.ReturnStmt:
		// The whole statement: gc evaluates the call before a plain
		// operand beside it, which the spec leaves unordered.
		return append(spans, [2]token.Pos{w.Pos(), w.End()})
	case *ast.IfStmt:
		start = r.call.End() // its condition, body and else run after the write too
	}
	if cur, ok := r.cursor(r.call); ok {
		if is := errCheck(r.pass, cur); is != nil && is.Else == nil {
			spans = append(spans, [2]token.Pos{is.Body.Pos(), is.Body.End()})
			if terminates(is.Body) {
				return spans
			}
		}
	}
	return append(spans, [2]token.Pos{start, fn.End()})
}
