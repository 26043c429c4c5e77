package migrate

import (
	"go/ast"
	"go/token"
	"go/types"
	"slices"
	"strconv"

	"github.com/statuspatch/statuspatch/cmd/statuspatch-lint/internal/kube"
)

// A reference into the object put in a new local variable (name :=
// app.Spec.Driver.PodName, var l = w.Spec.Labels) or a range over one that
// declares its key and value (for _, p := range ds.Spec.Roles) is followed:
// every use of the local in its scope is checked as a use of the
// reference would be (chainChange), so a local only read (*name, p.Name,
// p.Scaling.Mode) keeps the write movable, and one changed, handed on or
// assigned elsewhere keeps it, with where. Assigning the local itself
// again changes nothing in the object (the new value's uses are checked
// too); taking its address counts as a change. Locals of locals are
// followed a few deep, and so are a reference passed to a function of the
// package, into its parameter, and what meta.FindStatusCondition returns
// (a reference into the conditions it is given).

// maxLocalDepth bounds how many locals deep a reference is followed.
const maxLocalDepth = 3

// definedLocal returns the new local variable that the define or var
// declaration p gives e's value, or nil when p assigns an existing
// variable or its shape pairs no single name with e. blank reports that e
// goes to the blank identifier.
func (si refs) definedLocal(p ast.Node, e ast.Expr) (local *types.Var, blank bool) {
	var lhs []*ast.Ident
	var rhs []ast.Expr
	switch p := p.(type) {
	case *ast.AssignStmt:
		if p.Tok != token.DEFINE || len(p.Lhs) != len(p.Rhs) {
			return nil, false
		}
		for _, l := range p.Lhs {
			id, ok := l.(*ast.Ident)
			if !ok {
				return nil, false
			}
			lhs = append(lhs, id)
		}
		rhs = p.Rhs
	case *ast.ValueSpec:
		if len(p.Names) != len(p.Values) {
			return nil, false
		}
		lhs, rhs = p.Names, p.Values
	default:
		return nil, false
	}
	for i, r := range rhs {
		if r != e {
			continue
		}
		if lhs[i].Name == "_" {
			return nil, true
		}
		v, _ := si.pass.TypesInfo.Defs[lhs[i]].(*types.Var)
		return v, false
	}
	return nil, false
}

// rangeLocals returns the key and value a range statement declares (:=)
// that may hold references, and whether its shape lets them be followed:
// a define over a slice, array, pointer to an array, map, string or
// channel (a range over a function calls it).
func (si refs) rangeLocals(r *ast.RangeStmt) ([]*types.Var, bool) {
	if r.Tok != token.DEFINE {
		return nil, false
	}
	t := si.pass.TypesInfo.TypeOf(r.X)
	if t == nil {
		return nil, false
	}
	switch u := t.Underlying().(type) {
	case *types.Slice, *types.Array, *types.Map, *types.Chan, *types.Basic:
	case *types.Pointer:
		if _, ok := u.Elem().Underlying().(*types.Array); !ok {
			return nil, false
		}
	default:
		return nil, false
	}
	var vs []*types.Var
	for _, x := range []ast.Expr{r.Key, r.Value} {
		id, ok := x.(*ast.Ident)
		if x == nil || ok && id.Name == "_" {
			continue
		}
		if !ok {
			return nil, false
		}
		v, _ := si.pass.TypesInfo.Defs[id].(*types.Var)
		if v == nil {
			return nil, false
		}
		if holdsRefs(v.Type()) {
			vs = append(vs, v)
		}
	}
	return vs, true
}

// followLocal checks every use of local in its scope as chainChange checks
// a reference into the object, and says what the first that may change
// the object does, with where; "" if none does.
func (si refs) followLocal(local *types.Var) string {
	if si.localDepth >= maxLocalDepth {
		return "which is not followed further"
	}
	scope := local.Parent()
	var file *ast.File
	for _, f := range si.pass.Files {
		if f.FileStart <= local.Pos() && local.Pos() < f.FileEnd {
			file = f
		}
	}
	if scope == nil || file == nil {
		return "which is not followed"
	}
	si.localDepth++
	defer func() { si.localDepth-- }()
	return si.eachUse(file, local, scope.Pos(), scope.End(), func(stack []ast.Node, id *ast.Ident) string {
		i := len(stack) - 1
		if as, ok := stack[i-1].(*ast.AssignStmt); ok && isLHS(as, id) {
			return "" // the local itself assigned again: not the object
		}
		if si.ownFieldAssigned(stack, i) {
			return "" // a field of the local's own storage (migrateaddress.go)
		}
		direct, how := si.chainChange(stack, i)
		switch {
		case direct:
			top, _ := changedAt(stack, i)
			if u, ok := stack[top-1].(*ast.UnaryExpr); ok && u.Op == token.AND {
				return "whose address is taken at " + si.where(id.Pos())
			}
			return "where " + types.ExprString(stack[top].(ast.Expr)) + " is changed at " + si.where(id.Pos())
		case how != "":
			return "where, at " + si.where(id.Pos()) + ", " + how
		}
		return ""
	})
}

// refReturners are functions that return a reference into an argument
// (by package, name and the argument's position) and otherwise only read
// it: what they return is followed as the argument would be.
var refReturners = map[string]map[string]int{
	"k8s.io/apimachinery/pkg/api/meta": {"FindStatusCondition": 0},
}

// returnsRefInto reports whether call is one of refReturners' with e as
// the argument it returns a reference into.
func (si refs) returnsRefInto(call *ast.CallExpr, e ast.Node) bool {
	fn := kube.CalledFunc(si.pass, call)
	if fn == nil || fn.Pkg() == nil || call.Ellipsis.IsValid() {
		return false
	}
	i, ok := refReturners[fn.Pkg().Path()][fn.Name()]
	return ok && i < len(call.Args) && ast.Node(call.Args[i]) == e
}

// followParam follows a reference e passed to call, a function or method
// of the package called directly, into the parameter it lands in (its
// uses checked by followLocal), and reports whether it could: not a
// method expression, a variadic argument or a function without a body.
// ret records whether, and as which results, the function returns it
// (refsreturned.go).
func (si refs) followParam(call *ast.CallExpr, e ast.Expr) (how string, ok bool, ret *returning) {
	fn := kube.CalledFunc(si.pass, call)
	if fn == nil || fn.Pkg() != si.pass.Pkg || call.Ellipsis.IsValid() {
		return "", false, nil
	}
	if sel, isSel := ast.Unparen(call.Fun).(*ast.SelectorExpr); isSel {
		if s := si.pass.TypesInfo.Selections[sel]; s != nil && s.Kind() == types.MethodExpr {
			return "", false, nil
		}
	}
	fd := si.funcDecl(fn.Origin())
	if fd == nil || fd.Body == nil {
		return "", false, nil
	}
	return returns(si).intoFunc(call, e, fd.Type, fd.Body, fn.Signature().Variadic())
}

// intoFunc follows e, an argument of call, into the parameter of the
// function (its type and body) it lands in: followParam's, and a
// function value's (refsfuncvalue.go).
func (si returns) intoFunc(call *ast.CallExpr, e ast.Expr, ft *ast.FuncType, body *ast.BlockStmt, variadic bool) (how string, ok bool, ret *returning) {
	arg := slices.IndexFunc(call.Args, func(a ast.Expr) bool { return a == e })
	var params []*ast.Ident // nil for an unnamed parameter
	for _, field := range ft.Params.List {
		if len(field.Names) == 0 {
			params = append(params, nil)
		}
		params = append(params, field.Names...)
	}
	if arg < 0 || arg >= len(params) || variadic && arg >= len(params)-1 {
		return "", false, nil
	}
	if params[arg] == nil || params[arg].Name == "_" {
		return "", true, nil // unused
	}
	p, _ := si.pass.TypesInfo.Defs[params[arg]].(*types.Var)
	if p == nil {
		return "", false, nil
	}
	outer := si.returning
	si.returning = &returning{body: body}
	defer func() { si.returning = outer }()
	return si.refs().followInto(p), true, si.returning
}

// followInto follows a reference into the parameter p of a function of
// the package, whose locals are counted from none (maxLocalDepth bounds
// the locals of one function, not a chain of calls: karpenter's
// NodePool.RuntimeValidate hands each requirement on three functions
// deep). A parameter already being followed is a recursive call, whose
// uses are the ones being checked; at most maxFollowedParams functions
// are entered for one chain.
func (si refs) followInto(p *types.Var) string {
	if slices.Contains(si.intoParams, p) {
		return ""
	}
	if len(si.intoParams) == 0 {
		si.paramsEntered = 0 // a new chain
	}
	if si.paramsEntered >= maxFollowedParams {
		return "which is not followed further (more than " + strconv.Itoa(maxFollowedParams) + " calls of the package)"
	}
	si.paramsEntered++
	depth := si.localDepth
	si.localDepth, si.intoParams = 0, append(si.intoParams, p)
	defer func() { si.localDepth, si.intoParams = depth, si.intoParams[:len(si.intoParams)-1] }()
	return si.followLocal(p)
}

// maxFollowedParams bounds how many parameters of the package's functions
// one write's references are followed into.
const maxFollowedParams = 64

// returning is a function of the package checkCallee or followParam
// checks (its body: a declaration's or a literal's): a reference into
// the object it returns is its caller's to follow, at the positions of
// its results it is returned in (refsreturned.go).
type returning struct {
	body     *ast.BlockStmt
	returned bool
	results  []int
}

// returnedBy reports whether the return statement at the end of stack is
// r's function's own (not a literal's in it), and records it and the
// position of the result the stack goes through.
func returnedBy(stack []ast.Node, r *returning) bool {
	if r == nil {
		return false
	}
	at := -1
	for i := len(stack) - 1; i >= 0; i-- {
		switch n := stack[i].(type) {
		case *ast.ReturnStmt:
			if at < 0 && i+1 < len(stack) {
				at = slices.IndexFunc(n.Results, func(e ast.Expr) bool { return ast.Node(e) == stack[i+1] })
			}
		case *ast.FuncLit:
			if n.Body != r.body {
				return false
			}
			return r.record(at)
		case *ast.FuncDecl:
			if n.Body != r.body {
				return false
			}
			return r.record(at)
		case *ast.BlockStmt:
			if n == r.body {
				return r.record(at)
			}
		}
	}
	return false
}

// record notes a return of the reference as the result at (-1: not
// known, as a bare return).
func (r *returning) record(at int) bool {
	r.returned = true
	if !slices.Contains(r.results, at) {
		r.results = append(r.results, at)
	}
	return true
}
