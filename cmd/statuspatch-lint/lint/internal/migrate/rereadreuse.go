package migrate

import (
	"fmt"
	"go/ast"
	"go/types"
	"slices"

	"github.com/statuspatch/statuspatch/cmd/statuspatch-lint/internal/kube"
)

// reuseEarlier makes f, the re-read of g's value read into itself
// (Fetch<Kind>StatusPatcherInto), assign the patcher of the read before
// it, the group's last anchor before the re-read, whose writes all come
// before it (else that patcher spans the re-read: planFetches): one
// patcher over the value all along, where the Fetch into an object of its
// own made a second and copied it back. It does when nothing can use that
// patcher after it is assigned again (reuseRoot), and says false
// otherwise (the re-read keeps a patcher of its own and the copy).
func (f *fetchPlan) reuseEarlier(group []*migration, g *migration) bool {
	root, why := reuseRoot(group, g)
	if root == nil || why != "" {
		return false
	}
	f.reuse = root
	if !f.planReuse(g) {
		f.reuse, f.declareErr = nil, false
		return false
	}
	f.sameBlock = g.block(root) == g.block(g.get)
	for _, h := range group {
		// A re-read before it in its block whose Fetch declares the error
		// variable already (planFetches plans them in source order).
		if e := h.fetch; e != nil && e != f && h.get.Pos() < g.get.Pos() && (e.define || e.declareErr) && e.errName == f.errName && g.block(h.get) == g.block(g.get) {
			f.declareErr = false
		}
	}
	return true
}

// reuseRoot is the anchor of the patcher the re-read of g (g.get) would
// assign again, the first of those its group's re-reads assign, nil when
// no read comes before it; and why it cannot, naming the line and the
// fact, "" when it can:
//   - its variable is in scope at the re-read, in the same function;
//   - none of its writes is the call of a defer statement (defer
//     p.Flush(ctx) keeps the patcher it was given) or in a go statement;
//     a deferred function literal reads the variable when it runs, and
//     flushes the patcher of the value's last read, where the old one,
//     its base older than that read, would conflict (the Fetch goes to a
//     variable of its own first: literalFlush);
//   - it is not one the code makes itself, and hands to no helper: no
//     call between its read and the re-read passes the value to a
//     function -fix may give the patcher or that could hold it
//     (rereadHandedWhy).
func reuseRoot(group []*migration, g *migration) (ast.Stmt, string) {
	if g.get == nil {
		return nil, "" // no re-read (a write the function reads once)
	}
	reuse := map[ast.Stmt]ast.Stmt{}
	var anchor ast.Stmt
	for _, h := range group {
		if h.fetch != nil && h.fetch.reuse != nil {
			reuse[h.anchor] = h.fetch.reuse
		}
		if h.anchor != g.anchor && h.anchor.Pos() < g.get.Pos() && (anchor == nil || h.anchor.Pos() > anchor.Pos()) {
			anchor = h.anchor
		}
	}
	root := anchor
	for i := 0; root != nil && reuse[root] != nil && i < len(group); i++ {
		root = reuse[root]
	}
	if root == nil {
		return nil, ""
	}
	if !g.sameBlockFunc(root, g.get) {
		return root, "the variable of that patcher is not in scope there"
	}
	fn, ok := g.cursor(g.enclosingFunc())
	if !ok {
		return root, "its function is not known"
	}
	writes := map[*ast.CallExpr]bool{}
	for _, h := range group {
		a := h.anchor
		for i := 0; reuse[a] != nil && i < len(group); i++ {
			a = reuse[a]
		}
		writes[h.call] = true
		if a != root {
			continue
		}
		c, ok := g.cursor(h.call)
		at := g.where(h.call.Pos())
		switch {
		case !ok:
			return root, "its function is not known"
		case h.helper != nil:
			return root, fmt.Sprintf("the write at %s is a helper's, given the patcher by its callers", at)
		case h.callback != nil:
			return root, fmt.Sprintf("the write at %s is in a function handed to a callback", at)
		case h.via != nil:
			return root, fmt.Sprintf("the patcher of the write at %s is one the code makes itself", at)
		case receiverHeld(fn, c):
			return root, fmt.Sprintf("the write at %s takes the patcher when its defer or go statement runs", at)
		}
	}
	for c := range fn.Preorder((*ast.CallExpr)(nil)) {
		call := c.Node().(*ast.CallExpr)
		if call.Pos() < root.End() || call.Pos() >= g.get.Pos() || writes[call] {
			continue
		}
		if why := rereadHandedWhy(g, call); why != "" {
			return root, why
		}
	}
	return root, ""
}

// rereadHandedWhy says why call, between a patcher's read and a re-read that
// would assign it again, keeps the re-read's patcher its own: it is given
// g's object and may be given the patcher by -fix, or hold the object
// (and so the patcher's) after it returns. A function outside the module
// is neither. One of another package of the module is neither when its
// summary (ParamsFact) says its body changes at most the status of that
// argument, and it takes no patcher (no HelperFact for it): failmark's
// MarkFailed in a deferred failure write (issue 80, U4's F5), which at
// faa5cbbb kept every write of its caller. One of this package is
// neither when its body says the same, followed (localHandedWhy). "" when
// call is none of these.
func rereadHandedWhy(g *migration, call *ast.CallExpr) string {
	given := fmt.Sprintf("%s is given to %s at %s", g.obj.Name(), types.ExprString(call.Fun), g.where(call.Pos()))
	callee := kube.CalledFunc(g.pass, call)
	for i, e := range call.Args {
		if !passesObj(g.pass.TypesInfo, g.obj, e) {
			continue
		}
		switch {
		case callee == nil:
			why, known := valueHandedWhy(g, call, e)
			if !known {
				return given + ", and which function runs there is not known"
			}
			if why != "" {
				return given + why
			}
			continue
		case outsideModule(g.pass, callee):
			return ""
		case callee.Pkg() == g.pass.Pkg:
			if why := localHandedWhy(g, callee, call, i); why != "" {
				return given + why
			}
			continue
		}
		if why := importedHandedWhy(g, callee, call, i); why != "" {
			return given + why
		}
	}
	return ""
}

// localHandedWhy is rereadHandedWhy's reason for argument i of call, of
// callee, a function of this package (issue 80, the tutorial's markLocal
// before the re-Get): none when its body, followed as a write's uses are
// (checkFunc), changes at most the status of that argument and keeps it
// nowhere, and neither it nor a function of the package it hands the
// argument on to writes the status: such a write takes the patcher -fix
// gives it, made before the re-read.
func localHandedWhy(g *migration, callee *types.Func, call *ast.CallExpr, i int) string {
	fd := g.funcDecl(callee)
	if fd == nil || fd.Body == nil || call.Ellipsis.IsValid() || callee.Signature().Variadic() && i >= callee.Signature().Params().Len()-1 {
		return ", a function of this package whose use of it -fix does not follow"
	}
	if w := localStatusWrite(g, fd, i, 0); w != nil {
		return fmt.Sprintf(", a function of this package whose status write at %s takes the patcher -fix gives it, made before the re-read", g.where(w.Pos()))
	}
	if ok, why := g.checks().checkFunc(call, callee, i, false, 0); !ok {
		if why == "" {
			why = "its body may change more than its status or keep it"
		}
		return ", a function of this package: " + why
	}
	return ""
}

// localStatusWrite is a status write of parameter i of fd, a function of
// the package, in its body or in a function of the package it hands that
// parameter on to (up to MaxChainDepth deep); nil when there is none.
func localStatusWrite(g *migration, fd *ast.FuncDecl, i, depth int) *ast.CallExpr {
	params := paramVars(g.pass, fd)
	if i >= len(params) || params[i] == nil || depth > MaxChainDepth {
		return nil
	}
	p := params[i]
	var found *ast.CallExpr
	ast.Inspect(fd.Body, func(n ast.Node) bool {
		call, ok := n.(*ast.CallExpr)
		if !ok || found != nil {
			return found == nil
		}
		if isStatusWrite(call) && len(call.Args) > 1 && passesObj(g.pass.TypesInfo, p, call.Args[1]) {
			found = call
			return false
		}
		next := g.funcDecl(kube.CalledFunc(g.pass, call))
		for j, a := range call.Args {
			if next != nil && next.Body != nil && next != fd && passesObj(g.pass.TypesInfo, p, a) {
				if w := localStatusWrite(g, next, j, depth+1); w != nil {
					found = w
				}
			}
		}
		return found == nil
	})
	return found
}

// importedHandedWhy is rereadHandedWhy's reason for argument i of call, of
// callee, a function of another package of the module, by its facts.
func importedHandedWhy(g *migration, callee *types.Func, call *ast.CallExpr, i int) string {
	sig := callee.Signature()
	if sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr); ok {
		if s := g.pass.TypesInfo.Selections[sel]; s != nil && s.Kind() == types.MethodExpr {
			return ", a method expression, whose arguments its facts do not number"
		}
	}
	if call.Ellipsis.IsValid() || sig.Variadic() && i >= sig.Params().Len()-1 {
		return ", as a variadic argument, which its facts do not follow"
	}
	var helper HelperFact
	if g.pass.ImportObjectFact(callee.Origin(), &helper) && helper.ObjIndex == i {
		return fmt.Sprintf(", whose write at %s takes the patcher, which it could hold", helper.At)
	}
	var fact ParamsFact
	if g.pass.ImportObjectFact(callee.Origin(), &fact) && slices.Contains(fact.StatusOnly, i) {
		return ""
	}
	if why := g.factWhy(callee, i); why != "" {
		return why // ", where ... at file:line: ..."
	}
	return ", whose body may change more than its status or keep it" + g.unanalysed(callee)
}
