package migrate

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"slices"
	"strings"

	"golang.org/x/tools/go/analysis"

	"github.com/statuspatch/statuspatch/cmd/statuspatch-lint/internal/kube"
)

// The blind merge patches kubebuilder users write, moved like an Update:
//
//   - c.Status().Patch(ctx, obj, client.Merge): the whole object as a merge
//     patch (what the code set in the status since it read the object,
//     never a field it cleared): the patcher is made at the read, as for
//     an Update, and Flush writes what changed since, a cleared field
//     included;
//   - a base taken late, after the status changes since the read:
//     client.MergeFrom(obj.DeepCopy()) at the write, or base :=
//     obj.DeepCopy() (patch := client.MergeFrom(obj.DeepCopy())) after
//     them: an empty patch, whose response came back over the changes.
//     The changes start at the read: the patcher is made there, the late
//     base dropped, and Flush writes them.

// otherPatch is why a Patch whose patch is none of the shapes -fix moves
// stays.
func (m reads) otherPatch(patch ast.Expr) string {
	const merge = " client.MergeFrom(base) or client.Merge: Flush sends a merge patch of the status changes since the patcher was made; move it by hand"
	if own := m.ownPatchType(patch); own != "" {
		return m.shapeWhy("the patch " + types.ExprString(patch) + ", of type " + own + ", is not" + merge + " (the patcher's apply mode, patcher.WithWriteMode(patcher.WriteApply) and ApplyStatus, where it applies a status)")
	}
	if id, ok := patch.(*ast.Ident); ok {
		if call := m.patchByCall(usedVar(m.pass, id)); call != nil {
			return m.shapeWhy(fmt.Sprintf("the patch %s, a %s returned by %s at %s, which -fix does not follow, is not%s",
				id.Name, typeName(m.pass.Pkg, m.pass.TypesInfo.TypeOf(id)), types.ExprString(call.Fun), m.where(call.Pos()), merge))
		}
	}
	return m.shapeWhy("the patch " + types.ExprString(patch) + " is not client.MergeFrom(base) or client.Merge: Flush sends a merge patch of the status changes since the patcher was made; move it by hand")
}

// ownPatchType says what patch is when its type is a client.Patch type of
// its own (not controller-runtime's): trust-manager's ssa_client.ApplyPatch,
// whose Type method returns types.ApplyPatchType (its ParamsFact.Const),
// is a server-side apply of the bytes it holds, which -fix does not read;
// the patcher's apply mode is the move, by hand. "" for any other patch.
func (c *calls) ownPatchType(patch ast.Expr) string {
	t := c.pass.TypesInfo.TypeOf(patch)
	n := kube.NamedOf(t)
	if t == nil || n == nil || types.IsInterface(t) || n.Obj().Pkg() == nil || strings.HasPrefix(n.Obj().Pkg().Path(), "sigs.k8s.io/controller-runtime/") {
		return ""
	}
	name := typeName(c.pass.Pkg, t)
	typ, _, _ := types.LookupFieldOrMethod(t, true, n.Obj().Pkg(), "Type")
	var fact ParamsFact
	if fn, ok := typ.(*types.Func); ok && c.pass.ImportObjectFact(fn, &fact) && fact.Const == applyPatchType {
		return name + ", a server-side apply of bytes -fix does not read (its Type method returns types.ApplyPatchType)"
	}
	return name + ", a patch type of its own"
}

// usedVar is the variable id uses, nil if none.
func usedVar(pass *analysis.Pass, id *ast.Ident) *types.Var {
	v, _ := pass.TypesInfo.Uses[id].(*types.Var)
	return v
}

// applyPatchType is the value of apimachinery's types.ApplyPatchType.
const applyPatchType = "application/apply-patch+yaml"

// typeName is t as the code of package pkg names it: by package name.
func typeName(pkg *types.Package, t types.Type) string {
	return types.TypeString(t, func(p *types.Package) string {
		if p == pkg {
			return ""
		}
		return p.Name()
	})
}

// patchByCall returns the call whose results define the patch variable v
// with others (con, patch, err := ssa_client.GenerateBundleStatusPatch(...)
// in trust-manager): a patch made by a function, whose shape is what
// blocks the move, not the write's options. nil otherwise.
func (c *calls) patchByCall(v *types.Var) *ast.CallExpr {
	if v == nil || c.insp == nil {
		return nil
	}
	cur, ok := c.insp.Root().FindByPos(v.Pos(), v.Pos()+token.Pos(len(v.Name())))
	if id, isID := cur.Node().(*ast.Ident); !ok || !isID || c.pass.TypesInfo.Defs[id] != v {
		return nil
	}
	as, ok := cur.Parent().Node().(*ast.AssignStmt)
	if !ok || len(as.Lhs) < 2 || len(as.Rhs) != 1 {
		return nil
	}
	call, _ := ast.Unparen(as.Rhs[0]).(*ast.CallExpr)
	return call
}

// lateBase reports whether the base def (of v) is taken after status
// changes of the object since its read in this function, with no write
// or read of the object between: then the anchor is the read, and def is
// dropped when nothing else uses v.
func (m reads) lateBase(def ast.Stmt, v *types.Var) bool {
	r := &migration{site: m.site, obj: m.obj, audit: true}
	if r.reads().findGetBefore(def.Pos()); r.anchor == nil {
		return false
	}
	if !m.statusChangedBetween(r.anchor.End(), def.Pos()) {
		return false
	}
	m.anchor, m.keep, m.get, m.getCheck = r.anchor, true, r.get, r.getCheck
	m.late, m.lateVar = def, v
	m.lateKeep = m.uses(v) != 1
	return true
}

// statusChangedBetween reports whether, between from and to, the status of
// the object is assigned or taken by address (meta.SetStatusCondition(
// &obj.Status.Conditions, ...)), and no call takes the object itself or
// its address (a write or a read of it, which makes a base after it
// right).
func (m reads) statusChangedBetween(from, to token.Pos) bool {
	changed := false
	for c := range m.usesOf(m.enclosingFunc(), m.obj, from, to) {
		switch p := c.Parent().Node().(type) {
		case *ast.CallExpr:
			if p.Fun == c.Node() {
				continue
			}
			if !statusOnlyChange(m.migration, p, c.Node().(ast.Expr)) {
				return false // the object itself handed to a call
			}
			changed = true // markReady(obj): a status change, as an assignment
		case *ast.UnaryExpr:
			if _, arg := c.Parent().Parent().Node().(*ast.CallExpr); p.Op == token.AND && arg {
				return false // its address: r.Status().Update(ctx, &obj)
			}
		case *ast.SelectorExpr:
			if p.X == c.Node() && statusOnlyChange(m.migration, p, nil) {
				changed = true // obj.SetCondition(c): a status change
				continue
			}
			if p.X != c.Node() || p.Sel.Name != "Status" {
				continue
			}
			top := chainTop(c.Parent(), nil)
			switch q := top.Parent().Node().(type) {
			case *ast.AssignStmt:
				changed = changed || isLHS(q, top.Node())
			case *ast.IncDecStmt:
				changed = true
			case *ast.UnaryExpr:
				changed = changed || q.Op == token.AND
			}
		}
	}
	return changed
}

// statusOnlyChange reports whether n changes at most the object's status
// and writes nothing, by its callee's ParamsFact: a call given the
// object as arg, of a function of the package that has it StatusOnly
// with no status write in its body (markReady(obj)), or, arg nil, the
// selector of a method called on it whose receiver is "statusOnly"
// (obj.SetCondition(c)). A base taken after it leaves its change unsent
// as after an assignment.
func statusOnlyChange(m *migration, n ast.Node, arg ast.Expr) bool {
	var fact ParamsFact
	if sel, ok := n.(*ast.SelectorExpr); ok {
		s := m.pass.TypesInfo.Selections[sel]
		if s == nil || s.Kind() != types.MethodVal {
			return false
		}
		fn, ok := s.Obj().(*types.Func)
		return ok && m.pass.ImportObjectFact(fn.Origin(), &fact) && fact.Recv == "statusOnly" && fact.RecvChanges
	}
	call, _ := n.(*ast.CallExpr)
	if call == nil {
		return false
	}
	fn := calleeFunc(m.pass.TypesInfo, call)
	i := slices.Index(call.Args, arg)
	if fn == nil || i < 0 || fn.Signature().Recv() != nil || call.Ellipsis.IsValid() {
		return false
	}
	if !m.pass.ImportObjectFact(fn.Origin(), &fact) || !slices.Contains(fact.StatusOnly, i) || !slices.Contains(fact.Changes, i) {
		return false // reads it only, or changes more
	}
	if fn.Pkg() != m.pass.Pkg {
		// Its StatusOnly is its body's uses judged as a callee's: a
		// status write there, or a call of a function that writes, is
		// none (assuming.uses, at depth 1), so it writes nothing.
		return true
	}
	fd := m.funcDecl(fn)
	return fd != nil && fd.Body != nil && localStatusWrite(m, fd, i, 0) == nil
}

// lateNote says, in the fix's message, that a late base moved to the read.
func (m *migration) lateNote() string {
	if m.late == nil && !m.lateInline || m.lateFresh {
		return ""
	}
	if m.late != nil && m.reads().statusChangedBetween(m.late.End(), m.call.Pos()) {
		// The status changes after the base too: the patch sent those.
		return "; its base was taken after status changes, which its patch did not send (only those after the base): the patcher is made at the read, and Flush writes them too"
	}
	return "; its base was taken after the status changes (an empty patch, which wrote none of them): the patcher is made at the read, and Flush writes them"
}
