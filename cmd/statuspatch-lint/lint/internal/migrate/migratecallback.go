package migrate

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/analysis"
)

// A helper that reads the object fresh, hands it to a function it is
// given, and writes it (openstack-hypervisor-operator's
// PatchHypervisorStatusWithRetry(ctx, c, name, owner, updateFn
// func(*Hypervisor)): Get, base, updateFn(hv), a locked status patch)
// moves as the write it is when every function its callers pass there
// changes at most the status: a summary over all the module's call
// sites, resolved as an exported helper's group is (migrateexported.go).
// The helper's package gives its fix with a CallbackFact and its member;
// each package calling it gives a member: no edits, or why a call
// cannot move (a function value that is not a literal, a literal whose
// body changes more than the status, the helper taken as a value). Only
// an exported function (no receiver) whose parameter the function is,
// under a driver that analyzes the whole module (Options.Module).

// CallbackFact marks an exported helper whose write moves when each
// function its callers pass as parameter Param changes at most the
// status of its argument Arg (the object).
type CallbackFact struct {
	Param int
	Arg   int
}

// AFact marks CallbackFact as an analysis fact.
func (*CallbackFact) AFact() {}

func (f *CallbackFact) String() string {
	return fmt.Sprintf("callback(param %d, arg %d)", f.Param, f.Arg)
}

// callbackUse is the call of the helper's function parameter that
// passes the object: the parameter's function and positions.
type callbackUse struct {
	fn    *types.Func
	name  string // the parameter's
	param int
	arg   int
}

// callbackArg reports whether call passes id, the object, to a function
// parameter of the exported function holding the write, and records it
// (the callers' functions are checked by the group).
func (m checks) callbackArg(call *ast.CallExpr, id *ast.Ident) bool {
	fun, ok := ast.Unparen(call.Fun).(*ast.Ident)
	if !ok || !m.module || call.Ellipsis.IsValid() {
		return false
	}
	v, _ := m.pass.TypesInfo.Uses[fun].(*types.Var)
	var decl *ast.FuncDecl
	for _, n := range m.path {
		if fd, ok := n.(*ast.FuncDecl); ok {
			decl = fd
		}
	}
	if v == nil || decl == nil || decl.Recv != nil || !decl.Name.IsExported() {
		return false
	}
	fn, _ := m.pass.TypesInfo.Defs[decl.Name].(*types.Func)
	if fn == nil {
		return false
	}
	param := -1
	for i := range fn.Signature().Params().Len() {
		if fn.Signature().Params().At(i) == v {
			param = i
		}
	}
	arg := -1
	for i, a := range call.Args {
		if a == ast.Expr(id) {
			arg = i
		}
	}
	if param < 0 || arg < 0 || m.callback != nil && (m.callback.param != param || m.callback.arg != arg) || m.reassigned(decl, v) {
		return false
	}
	m.callback = &callbackUse{fn: fn, name: v.Name(), param: param, arg: arg}
	return true
}

// reassigned reports whether the body of decl assigns v or takes its
// address: the function called may then be another than the callers'.
func (c *calls) reassigned(decl *ast.FuncDecl, v *types.Var) bool {
	cur, ok := c.cursor(decl)
	if !ok {
		return true
	}
	for n := range cur.Preorder((*ast.AssignStmt)(nil), (*ast.UnaryExpr)(nil)) {
		var targets []ast.Expr
		switch n := n.Node().(type) {
		case *ast.AssignStmt:
			targets = n.Lhs
		case *ast.UnaryExpr:
			if n.Op == token.AND {
				targets = []ast.Expr{n.X}
			}
		}
		for _, t := range targets {
			if id, ok := ast.Unparen(t).(*ast.Ident); ok && c.pass.TypesInfo.Uses[id] == v {
				return true
			}
		}
	}
	return false
}

// exportCallback records the helper's fix as its group's (its fact for
// the callers' packages, its member for the driver), or returns why its
// own package's calls keep it.
func exportCallback(m *migration, opts Options, files Files) string {
	cb := m.callback
	if why := callbackCalls(m.pass, files, cb.fn, cb.param, cb.arg); why != "" {
		return why
	}
	fact := CallbackFact{Param: cb.param, Arg: cb.arg}
	if askAssumed(m.pass) {
		return "" // an asked fix's assumption exports nothing (askStacks)
	}
	m.pass.ExportObjectFact(cb.fn, &fact)
	if opts.Members != nil {
		*opts.Members = append(*opts.Members, GroupMember{
			Key: cb.fn.Pkg().Path() + "." + cb.fn.Name(), Helper: true, Pos: m.call.Pos(),
			param:  fmt.Sprintf("%s is passed to %s, a parameter of %s", m.obj.Name(), cb.name, cb.fn.Name()),
			alone:  fmt.Sprintf("no call of %s in the module shows the function it passes as %s", cb.fn.Name(), cb.name),
			advice: fmt.Sprintf("make the patcher in %s and pass each function as the mutate of its Retry by hand", cb.fn.Name()),
			audit:  m.audit,
		})
	}
	return ""
}

// callbackCalls checks every use of fn in the package: a call whose
// argument param is a function literal whose parameter arg changes at
// most the status. It returns why one is not, "" if none.
func callbackCalls(pass *analysis.Pass, files Files, fn *types.Func, param, arg int) string {
	for _, f := range pass.Files {
		m := &migration{site: site{place: place{calls: calls{pass: pass, insp: files.Inspector}, file: f}}}
		for cur := range m.insp.Root().Preorder((*ast.Ident)(nil)) {
			id := cur.Node().(*ast.Ident)
			if pass.TypesInfo.Uses[id] != fn {
				continue
			}
			at := m.where(id.Pos())
			e := cur
			if sel, ok := cur.Parent().Node().(*ast.SelectorExpr); ok && sel.Sel == id {
				e = cur.Parent()
			}
			call, ok := e.Parent().Node().(*ast.CallExpr)
			if !ok || call.Fun != e.Node() || param >= len(call.Args) || call.Ellipsis.IsValid() {
				return fmt.Sprintf("%s is used at %s other than called", fn.Name(), at)
			}
			lit, ok := ast.Unparen(call.Args[param]).(*ast.FuncLit)
			if !ok {
				return fmt.Sprintf("the function passed to %s at %s, %s, is not a function literal", fn.Name(), at, types.ExprString(call.Args[param]))
			}
			var p *types.Var
			i := 0
			for _, field := range lit.Type.Params.List {
				for _, n := range field.Names {
					if i == arg {
						p, _ = pass.TypesInfo.Defs[n].(*types.Var)
					}
					i++
				}
				if len(field.Names) == 0 {
					i++
				}
			}
			if p == nil || p.Name() == "_" {
				continue // the object unnamed: unused
			}
			if why := m.checks().checkUses(lit.Body, p, lit.Body.Pos(), lit.Body.End(), 1); why != "" {
				return fmt.Sprintf("the function literal passed to %s at %s may change more than the status: %s", fn.Name(), at, why)
			}
		}
	}
	return ""
}

// callbackMember is the package's part in the move of fn, a helper with
// a CallbackFact: no edits, or why one of its calls cannot move.
func callbackMember(pass *analysis.Pass, files Files, fn *types.Func, fact *CallbackFact) GroupMember {
	member := GroupMember{Key: fn.Pkg().Path() + "." + fn.Name()}
	if why := callbackCalls(pass, files, fn, fact.Param, fact.Arg); why != "" {
		member.Why = "in package " + pass.Pkg.Path() + ", " + why
	}
	return member
}
