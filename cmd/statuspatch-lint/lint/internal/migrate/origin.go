package migrate

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"strings"

	"github.com/statuspatch/statuspatch/cmd/statuspatch-lint/internal/kube"
	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ast/inspector"
)

// An origin is where the written object came from, followed back from
// its variable through the function and the package: its definition
// (obj := &list.Items[i], obj := byRole[k], obj := other.DeepCopy(),
// obj := other), the range it is the value of, and, for a parameter, the
// arguments the package's calls of its function pass. An element of a
// List's items, a slice, an array or a map is a copy the model cannot
// show fresh (a List's items are the cache's; a List is known by its
// type, kube.ListItems): a patcher made from it must read it again before
// it decides (Retry) or be made with Fetch, never Flush the copy (life.go's
// cachedItem).
type origin struct {
	pos  token.Pos // where the object is taken from the container
	what string    // "an item of a list", "a value of the map scalers", ...
	via  string    // how the write's variable reaches it: " (through the parameter w of markReady, passed at line 81)"
	// whose says whose copy it is: "a List's items are the cache's" (a
	// map's: what it holds is not followed) when empty; an event's object
	// (originevent.go)
	whose string
}

// originDepth bounds how many variables and calls back an origin is
// followed.
const originDepth = 6

// cachedOrigin returns where v is taken from a container, if the package
// shows it is; nil when it shows no container (a Get, a new object, a
// parameter without such callers).
func (m reads) cachedOrigin(v *types.Var, depth int) *origin {
	if v == nil || depth > originDepth || !v.Pos().IsValid() {
		return nil
	}
	cur, ok := m.defCursor(v)
	if !ok {
		return nil
	}
	id := cur.Node().(*ast.Ident)
	switch p := cur.Parent().Node().(type) {
	case *ast.AssignStmt:
		if p.Tok != token.DEFINE {
			return nil
		}
		for i, l := range p.Lhs {
			if l != ast.Expr(id) {
				continue
			}
			switch {
			case len(p.Rhs) == len(p.Lhs):
				return m.exprOrigin(p.Rhs[i], depth)
			case len(p.Rhs) == 1 && i == 0:
				return m.exprOrigin(p.Rhs[0], depth) // s, ok := byRole[k]
			}
		}
	case *ast.ValueSpec:
		for i, n := range p.Names {
			if n == id && i < len(p.Values) && len(p.Values) == len(p.Names) {
				return m.exprOrigin(p.Values[i], depth)
			}
		}
	case *ast.RangeStmt:
		if p.Value == ast.Expr(id) && elemIsPointer(m.pass.TypesInfo.TypeOf(p.X)) {
			return elementOrigin(m.pass, p.Pos(), p.X, "a value of")
		}
	case *ast.Field:
		return m.paramOrigin(cur, v, depth)
	}
	return nil
}

// exprOrigin is cachedOrigin for the value e a variable is defined as.
func (m reads) exprOrigin(e ast.Expr, depth int) *origin {
	info := m.pass.TypesInfo
	switch x := ast.Unparen(e).(type) {
	case *ast.UnaryExpr:
		ix, ok := ast.Unparen(x.X).(*ast.IndexExpr)
		if x.Op != token.AND || !ok {
			return nil
		}
		switch info.TypeOf(ix.X).Underlying().(type) {
		case *types.Slice, *types.Array:
			return elementOrigin(m.pass, x.Pos(), ix.X, "an element of")
		}
	case *ast.IndexExpr:
		if elemIsPointer(info.TypeOf(x.X)) {
			return elementOrigin(m.pass, x.Pos(), x.X, "an element of")
		}
	case *ast.CallExpr:
		sel, ok := ast.Unparen(x.Fun).(*ast.SelectorExpr)
		if ok && sel.Sel.Name == "DeepCopy" && len(x.Args) == 0 {
			return m.exprOrigin(sel.X, depth) // a copy carries the original's resourceVersion
		}
	case *ast.TypeAssertExpr, *ast.SelectorExpr:
		if o := eventOrigin(info, x); o != nil {
			return o // e.ObjectNew.(*Kind) (originevent.go)
		}
		if ta, ok := x.(*ast.TypeAssertExpr); ok {
			return m.exprOrigin(ta.X, depth+1) // obj.(*Kind) of a parameter (originuncalled.go)
		}
	case *ast.Ident:
		v, _ := info.Uses[x].(*types.Var)
		return m.cachedOrigin(v, depth+1)
	}
	return nil
}

// paramOrigin is cachedOrigin for a parameter v (declared at cur) of a
// function declared in the package: the origin of what one of its calls
// in the package passes.
func (m reads) paramOrigin(cur inspector.Cursor, v *types.Var, depth int) *origin {
	if o := uncalledOrigin(m, cur, v); o != nil {
		return o // a function no code of the module calls (originuncalled.go)
	}
	var decl *ast.FuncDecl
	for c := range cur.Enclosing((*ast.FuncDecl)(nil), (*ast.FuncLit)(nil)) {
		decl, _ = c.Node().(*ast.FuncDecl)
		break
	}
	if decl == nil {
		return nil
	}
	fn, _ := m.pass.TypesInfo.Defs[decl.Name].(*types.Func)
	sig, _ := fn.Type().(*types.Signature)
	idx := -1
	for i := range sig.Params().Len() {
		if sig.Params().At(i) == v {
			idx = i
		}
	}
	if idx < 0 || sig.Variadic() && idx == sig.Params().Len()-1 {
		return nil
	}
	for c := range m.insp.Root().Preorder((*ast.CallExpr)(nil)) {
		call := c.Node().(*ast.CallExpr)
		if idx >= len(call.Args) || kube.CalledFunc(m.pass, call) != fn {
			continue
		}
		if o := m.exprOrigin(call.Args[idx], depth+1); o != nil {
			if o.via == "" {
				o.via = fmt.Sprintf(" (through the parameter %s of %s, passed at %s)", v.Name(), decl.Name.Name, m.where(call.Pos()))
			}
			return o
		}
	}
	return nil
}

// defCursor is the cursor of the identifier declaring v in the package.
func (m reads) defCursor(v *types.Var) (inspector.Cursor, bool) {
	if _, ok := m.cursor(m.file); !ok {
		return inspector.Cursor{}, false
	}
	cur, ok := m.insp.Root().FindByPos(v.Pos(), v.Pos()+token.Pos(len(v.Name())))
	if !ok {
		return cur, false
	}
	id, ok := cur.Node().(*ast.Ident)
	return cur, ok && m.pass.TypesInfo.Defs[id] == v
}

// elemIsPointer reports whether t is a slice, array, map or channel of
// pointers.
func elemIsPointer(t types.Type) bool {
	if t == nil {
		return false
	}
	var elem types.Type
	switch u := t.Underlying().(type) {
	case *types.Slice:
		elem = u.Elem()
	case *types.Array:
		elem = u.Elem()
	case *types.Map:
		elem = u.Elem()
	case *types.Chan:
		elem = u.Elem()
	case *types.Pointer:
		if a, ok := u.Elem().Underlying().(*types.Array); ok {
			elem = a.Elem()
		}
	}
	if elem == nil {
		return false
	}
	_, ok := elem.Underlying().(*types.Pointer)
	return ok
}

// elementOrigin is the origin of an element of the container x taken at
// pos: a List's item when x is a List's Items (listItems), a map's value
// by the map (prefix: "a value of", "an element of"), else an element of
// the slice, array or channel x, which holds what the code put there.
func elementOrigin(pass *analysis.Pass, pos token.Pos, x ast.Expr, prefix string) *origin {
	t := pass.TypesInfo.TypeOf(x)
	if p, ok := t.Underlying().(*types.Pointer); ok {
		t = p.Elem() // a pointer to an array
	}
	var kind string
	switch t.Underlying().(type) {
	case *types.Map:
		return &origin{pos: pos, what: prefix + " the map " + types.ExprString(x)}
	case *types.Array:
		kind = "array"
	case *types.Chan:
		kind = "channel"
	default:
		if listItems(pass, x) {
			return &origin{pos: pos, what: "an item of a list"}
		}
		kind = "slice"
	}
	return &origin{pos: pos, what: "an element of the " + kind + " " + types.ExprString(x), whose: "what the " + kind + " holds is put there where the model does not follow it"}
}

// listItems reports whether x selects the items of a List, known by its
// type (kube.ListItems): list.Items of a List type, not any field named
// Items.
func listItems(pass *analysis.Pass, x ast.Expr) bool {
	sel, ok := ast.Unparen(x).(*ast.SelectorExpr)
	if !ok {
		return false
	}
	s := pass.TypesInfo.Selections[sel]
	if s == nil || s.Kind() != types.FieldVal {
		return false
	}
	t, path := s.Recv(), s.Index()
	for _, i := range path[:len(path)-1] { // through embedded fields
		if p, ok := types.Unalias(t).(*types.Pointer); ok {
			t = p.Elem()
		}
		st, ok := t.Underlying().(*types.Struct)
		if !ok {
			return false
		}
		t = st.Field(i).Type()
	}
	return kube.ListItems(pass.Pkg, t, path[len(path)-1])
}

// cachedItem says why a base taken from an element of a list, slice or
// map (obj := &list.Items[i], a range over a slice or map of pointers,
// a copy of one, a parameter a caller passes one to) cannot be a plain
// patcher's: the element is a copy the model cannot show fresh (a List's
// items are the cache's), and a Flush from it writes over what this
// process wrote since (the patcher refuses it as a conflict, and the
// next reconcile decides again). "" when the object is no element.
func (m reads) cachedItem() string {
	o := m.cachedOrigin(m.obj, 0)
	if o == nil {
		return ""
	}
	name := m.obj.Name()
	ctx := "ctx"
	if len(m.call.Args) > 0 {
		ctx = types.ExprString(m.call.Args[0]) // the write's: context.TODO() in a predicate
	}
	client := itemClient(m.migration) // migrateitemwhy.go
	fix := fmt.Sprintf("make its patcher with Fetch%s(%s, %s, client.ObjectKeyFromObject(%s)), which reads it fresh, and Flush it here",
		m.patcherType, ctx, client, name)
	if o.what == "an item of a list" && o.via == "" {
		return m.shapeWhy(fmt.Sprintf("%s is an item of a list at %s, a cached copy: %s", name, m.where(o.pos), fix))
	}
	whose := o.whose
	switch {
	case whose != "":
	case strings.Contains(o.what, " the map "):
		// kueue's group.remotes holds Get results of another function:
		// not a List's items, and not followed either
		whose = "what a map holds is put there where the model does not follow it"
	default:
		whose = "a List's items are the cache's"
	}
	return m.shapeWhy(fmt.Sprintf("%s is %s at %s%s, a copy the model cannot show fresh (%s): %s", name, o.what, m.where(o.pos), o.via, whose, fix))
}

// listItem reports where the object is taken from an element of a
// container (cachedOrigin).
func (m reads) listItem() (string, bool) {
	if o := m.cachedOrigin(m.obj, 0); o != nil {
		return m.where(o.pos), true
	}
	return "", false
}
