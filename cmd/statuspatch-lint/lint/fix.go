package lint

import (
	"fmt"
	"go/ast"
	"go/types"

	"github.com/statuspatch/statuspatch/cmd/statuspatch-lint/internal/kube"
	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ssa"
)

// lockFixes returns the suggested fix of a blind status Patch, one fix
// whose edits cover every path (drivers reject two fixes with the same
// message on one diagnostic): each
// client.MergeFrom(x) it may send becomes
// client.MergeFromWithOptions(x, client.MergeFromWithOptimisticLock{}),
// and each MergeFromWithOptions/StrategicMergeFrom without the lock gets
// it as one more option, where the patch is built. A patch value that also
// feeds a non-status write (the object's own Patch) is not changed: the
// lock would make that write conflict too. shared then says why.
func lockFixes(pass *analysis.Pass, cl *classifier, files *fileSet, w *write, r result) (fixes []analysis.SuggestedFix, shared string) {
	if r.verdict != blind || w.generated || w.verb != "Patch" || len(w.args) < 3 {
		return nil, ""
	}
	var edits []analysis.TextEdit
	for _, leaf := range cl.leaves(w.args[2]) {
		call, ok := leaf.(*ssa.Call)
		if !ok {
			continue
		}
		fn := call.Common().StaticCallee()
		if fn == nil || !isClientFunc(fn) {
			continue
		}
		name := fn.Name()
		switch name {
		case "MergeFrom":
		case "MergeFromWithOptions", "StrategicMergeFrom":
			if cl.mergeOptions(name, call.Common().Args).verdict != blind {
				continue
			}
		default:
			continue
		}
		if cl.feedsOtherWrite(call) {
			return nil, "the same patch also feeds a write that is not to the status"
		}
		expr, ok := files.calls[call.Pos()]
		if !ok || !files.checked(expr.Pos()) {
			continue
		}
		if why := staleLockBase(pass, files, w, call, expr); why != "" {
			return nil, why
		}
		if a := cl.unread(w); a != nil {
			// The lock sends the object's resourceVersion: it has none.
			return nil, fmt.Sprintf("the object is made at line %d and not read from the server before the write: a lock would send an empty resourceVersion; read it first (a Get, or the generated patcher's Fetch)", pass.Fset.Position(a.Pos()).Line)
		}
		if fix, ok := lockFix(pass, expr, name); ok {
			edits = append(edits, fix.TextEdits...)
		}
	}
	if len(edits) == 0 {
		return nil, ""
	}
	return []analysis.SuggestedFix{{Message: lockFixMessage, TextEdits: edits}}, ""
}

const lockFixMessage = "add client.MergeFromWithOptimisticLock to the status patch"

// FixStays ends the message of a fix that makes a write optimistic (the
// lock, the apply's resourceVersion) but leaves it a finding: the mode
// reports an optimistic write of its kind (every handwritten write of a
// kind of this module, or of unknown kind, without -ci). An audit lists
// every write, a locked one as optimistic: its finding is what the lock
// fixed, so an audit's fixes are not marked. The driver prints a marked
// fix as locked and kept, not fixed. It is a suffix of the fix's message,
// not a field: the command reads the checker's -json output, whose schema
// (x/tools' driverutil.JSONSuggestedFix: message and edits; a diagnostic's
// category, message and related) has no other place for it, and the
// category names the finding (handwritten, a verdict), not its fix.
const FixStays = "; the write stays a finding"

// stillReported marks fixes (the lock or apply fixes of a write -fix does
// not move) as leaving the write a finding.
func stillReported(fixes []analysis.SuggestedFix) []analysis.SuggestedFix {
	for i := range fixes {
		fixes[i].Message += FixStays
	}
	return fixes
}

// lockFix is the edit adding MergeFromWithOptimisticLock to the patch
// constructor call expr, qualified as the call qualifies the constructor.
// A call spreading a slice of options (opts...) is not fixed: the lock
// cannot be added without changing the slice.
func lockFix(pass *analysis.Pass, expr *ast.CallExpr, name string) (analysis.SuggestedFix, bool) {
	if expr.Ellipsis.IsValid() || len(expr.Args) == 0 {
		return analysis.SuggestedFix{}, false
	}
	var qual string
	var sel *ast.Ident
	switch fun := ast.Unparen(expr.Fun).(type) {
	case *ast.SelectorExpr:
		id, ok := fun.X.(*ast.Ident)
		if !ok {
			return analysis.SuggestedFix{}, false
		}
		pkg, ok := pass.TypesInfo.Uses[id].(*types.PkgName)
		if !ok || pkg.Imported().Path() != kube.ClientPkgPath {
			return analysis.SuggestedFix{}, false
		}
		qual, sel = id.Name+".", fun.Sel
	case *ast.Ident: // dot import
		sel = fun
	default:
		return analysis.SuggestedFix{}, false
	}
	var edits []analysis.TextEdit
	if name == "MergeFrom" {
		edits = append(edits, analysis.TextEdit{Pos: sel.Pos(), End: sel.End(), NewText: []byte("MergeFromWithOptions")})
	}
	last := expr.Args[len(expr.Args)-1]
	edits = append(edits, analysis.TextEdit{Pos: last.End(), End: last.End(), NewText: []byte(", " + qual + "MergeFromWithOptimisticLock{}")})
	return analysis.SuggestedFix{
		Message:   lockFixMessage,
		TextEdits: edits,
	}, true
}

// feedsOtherWrite reports whether the patch value v may reach the patch
// argument of a Patch that is not a status write (the main resource, or
// another subresource), through local variables, φ-nodes, interface
// conversions, closures' captured variables and the parameters of the
// package's functions.
func (t *tracer) feedsOtherWrite(v ssa.Value) bool {
	seen := map[ssa.Value]bool{}
	var walk func(v ssa.Value, depth int) bool
	walk = func(v ssa.Value, depth int) bool {
		if v == nil || seen[v] || depth > kube.MaxDepth {
			return false
		}
		seen[v] = true
		refs := v.Referrers()
		if refs == nil {
			return false
		}
		for _, ref := range *refs {
			var next []ssa.Value
			switch ref := ref.(type) {
			case *ssa.Store:
				if ref.Val == v {
					next = t.loads(ref.Addr)
				}
			case *ssa.Phi, *ssa.MakeInterface, *ssa.ChangeInterface, *ssa.ChangeType:
				next = []ssa.Value{ref.(ssa.Value)}
			case *ssa.MakeClosure:
				if fn, ok := ref.Fn.(*ssa.Function); ok {
					for i, b := range ref.Bindings {
						if b == v && i < len(fn.FreeVars) {
							next = append(next, t.loads(fn.FreeVars[i])...)
						}
					}
				}
			case ssa.CallInstruction:
				if t.isOtherPatch(ref.Common(), v) {
					return true
				}
				if fn := localCallee(ref.Common()); fn != nil {
					for i, a := range ref.Common().Args {
						if a == v && i < len(fn.Params) {
							next = append(next, fn.Params[i])
						}
					}
				}
			}
			for _, n := range next {
				if walk(n, depth+1) {
					return true
				}
			}
		}
		return false
	}
	return walk(v, 0)
}

// isOtherPatch reports whether c is recv.Patch(ctx, obj, v, ...) on a
// client that does not write the status.
func (t *tracer) isOtherPatch(c *ssa.CallCommon, v ssa.Value) bool {
	if !c.IsInvoke() || c.Method.Name() != "Patch" || len(c.Args) < 3 || c.Args[2] != v {
		return false
	}
	return matchWriterCall(t, "Patch", c.Value, c.Args) == nil
}

// loads returns the values loaded from a local variable (its Alloc and the
// free variables of closures capturing it).
func (t *tracer) loads(addr ssa.Value) []ssa.Value {
	var out []ssa.Value
	for _, a := range t.aliases(addr) {
		refs := a.Referrers()
		if refs == nil {
			continue
		}
		for _, r := range *refs {
			if u, ok := r.(*ssa.UnOp); ok && u.X == a {
				out = append(out, u)
			}
		}
	}
	return out
}
