package migrate

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"slices"

	"golang.org/x/tools/go/ast/inspector"

	"github.com/statuspatch/statuspatch/cmd/statuspatch-lint/internal/kube"
)

// The values an unexported field or variable is given, in the package's
// syntax: the implementations an interface call on it may run
// (paramsimpls.go has the model and its use at the call).

// given is every implementation the package puts in src (a field, or a
// package variable; of the interface, or a slice, array or map of it),
// or why which is not known: the first use of src that may give it a
// value not followed.
func (i impls) given(src *types.Var) (set []impl, why string) {
	container := !types.IsInterface(src.Type())
	if i.insp == nil {
		i.insp = inspector.New(i.pass.Files)
	}
	for c := range i.insp.Root().Preorder((*ast.Ident)(nil), (*ast.CompositeLit)(nil)) {
		if lit, ok := c.Node().(*ast.CompositeLit); ok {
			if len(lit.Elts) > 0 && holdsField(i.pass.TypesInfo.TypeOf(lit), src) {
				if _, keyed := lit.Elts[0].(*ast.KeyValueExpr); !keyed {
					return nil, fmt.Sprintf("a literal of its struct at %s is not keyed", i.where(lit.Pos()))
				}
			}
			continue
		}
		id := c.Node().(*ast.Ident)
		obj, _ := i.pass.TypesInfo.Uses[id].(*types.Var)
		if obj == nil {
			obj, _ = i.pass.TypesInfo.Defs[id].(*types.Var)
		}
		if obj == nil || obj.Origin() != src {
			continue
		}
		var vals []impl
		var w string
		switch p := c.Parent().Node().(type) {
		case *ast.KeyValueExpr:
			if p.Key != id {
				return nil, i.handedOn(src, id)
			}
			vals, w = i.values(p.Value, container, 0)
		case *ast.ValueSpec:
			if k := slices.Index(p.Names, id); k >= 0 && k < len(p.Values) && len(p.Names) == len(p.Values) {
				vals, w = i.values(p.Values[k], container, 0)
			} else if k < 0 || len(p.Values) > 0 {
				return nil, i.handedOn(src, id)
			}
		case *ast.Field:
			continue // its declaration
		default:
			e := ast.Expr(id)
			if s, ok := p.(*ast.SelectorExpr); ok && s.Sel == id {
				e = s
				c = c.Parent()
			}
			vals, w = i.use(src, c, e, container)
		}
		if w != "" {
			return nil, w
		}
		for _, v := range vals {
			if !slices.ContainsFunc(set, func(s impl) bool { return types.Identical(s.t, v.t) }) {
				set = append(set, v)
			}
		}
	}
	return set, ""
}

// use is what the use e of src (at cur) gives it: the values assigned to
// it or to one of its elements, none when it only reads it, or why it is
// not known.
func (i impls) use(src *types.Var, cur inspector.Cursor, e ast.Expr, container bool) ([]impl, string) {
	for {
		if _, ok := cur.Parent().Node().(*ast.ParenExpr); !ok {
			break
		}
		cur = cur.Parent()
		e = cur.Node().(ast.Expr)
	}
	switch p := cur.Parent().Node().(type) {
	case *ast.AssignStmt:
		if k := slices.Index(p.Lhs, e); k >= 0 {
			if p.Tok != token.ASSIGN || len(p.Lhs) != len(p.Rhs) {
				return nil, i.handedOn(src, e)
			}
			if call, ok := ast.Unparen(p.Rhs[k]).(*ast.CallExpr); ok && i.isAppendTo(call, src) {
				return i.elems(call.Args[1:])
			}
			return i.values(p.Rhs[k], container, 0)
		}
		if !container {
			return nil, "" // copied
		}
	case *ast.IndexExpr:
		if p.X != e || !container {
			break
		}
		switch gp := cur.Parent().Parent().Node().(type) {
		case *ast.AssignStmt:
			if k := slices.Index(gp.Lhs, ast.Expr(p)); k >= 0 {
				if gp.Tok != token.ASSIGN || len(gp.Lhs) != len(gp.Rhs) {
					return nil, i.handedOn(src, e)
				}
				return i.values(gp.Rhs[k], false, 0)
			}
			return nil, "" // an element read
		case *ast.UnaryExpr:
			if gp.Op == token.AND {
				return nil, i.handedOn(src, e)
			}
		}
		return nil, "" // an element read
	case *ast.RangeStmt:
		if p.X == e {
			return nil, ""
		}
	case *ast.CallExpr:
		if id, ok := ast.Unparen(p.Fun).(*ast.Ident); ok && (id.Name == "len" || id.Name == "cap") {
			if _, builtin := i.pass.TypesInfo.Uses[id].(*types.Builtin); builtin {
				return nil, ""
			}
		}
		if i.isAppendTo(p, src) && p.Args[0] == e {
			// src = append(src, ...): the assignment's use gives the values.
			if as, ok := cur.Parent().Parent().Node().(*ast.AssignStmt); ok {
				if k := slices.Index(as.Rhs, ast.Expr(p)); k >= 0 && len(as.Lhs) == len(as.Rhs) && i.names(as.Lhs[k], src) {
					return nil, ""
				}
			}
		}
		if !container && slices.Contains(p.Args, e) {
			return nil, "" // copied
		}
	case *ast.SelectorExpr:
		if p.X == e {
			return nil, "" // a method of it called
		}
	case *ast.BinaryExpr:
		return nil, "" // compared
	case *ast.UnaryExpr:
		if p.Op == token.AND {
			return nil, i.handedOn(src, e)
		}
	}
	if !container {
		if _, ok := cur.Parent().Node().(*ast.UnaryExpr); !ok {
			return nil, "" // an interface value is copied wherever it goes
		}
	}
	return nil, i.handedOn(src, e)
}

// handedOn says that src, at e, may be given values not followed.
func (i impls) handedOn(src *types.Var, e ast.Expr) string {
	return fmt.Sprintf("%s is assigned or handed on at %s in a way -fix does not follow", src.Name(), i.where(e.Pos()))
}

// isAppendTo reports whether call is append(src, ...) without a spread.
func (i impls) isAppendTo(call *ast.CallExpr, src *types.Var) bool {
	id, ok := ast.Unparen(call.Fun).(*ast.Ident)
	if !ok || len(call.Args) == 0 || call.Ellipsis.IsValid() {
		return false
	}
	if b, ok := i.pass.TypesInfo.Uses[id].(*types.Builtin); !ok || b.Name() != "append" {
		return false
	}
	return i.names(call.Args[0], src)
}

// names reports whether e is src: x.src, or the variable src.
func (i impls) names(e ast.Expr, src *types.Var) bool {
	var v *types.Var
	switch x := ast.Unparen(e).(type) {
	case *ast.SelectorExpr:
		v, _ = i.pass.TypesInfo.Uses[x.Sel].(*types.Var)
	case *ast.Ident:
		v, _ = i.pass.TypesInfo.Uses[x].(*types.Var)
	}
	return v != nil && v.Origin() == src
}

// elems is the values of es, each an element.
func (i impls) elems(es []ast.Expr) ([]impl, string) {
	var set []impl
	for _, e := range es {
		if kv, ok := e.(*ast.KeyValueExpr); ok {
			e = kv.Value
		}
		vals, why := i.values(e, false, 0)
		if why != "" {
			return nil, why
		}
		set = append(set, vals...)
	}
	return set, ""
}

// values is the implementations e may hold: of a container (a slice,
// array or map of the interface) its elements'. A value of a concrete
// type is one; nil none; a literal of a container its elements'; a call
// of a function of the package what each of its returns holds.
func (i impls) values(e ast.Expr, container bool, depth int) ([]impl, string) {
	e = ast.Unparen(e)
	if isNil(e) {
		return nil, ""
	}
	t := i.pass.TypesInfo.TypeOf(e)
	if !container && t != nil && !types.IsInterface(t) {
		return []impl{{t, e.Pos()}}, ""
	}
	if lit, ok := e.(*ast.CompositeLit); ok && container {
		return i.elems(lit.Elts)
	}
	if call, ok := e.(*ast.CallExpr); ok && depth < maxImplDepth {
		if fd := i.returner(call); fd != nil {
			var set []impl
			var why string
			ast.Inspect(fd.Body, func(n ast.Node) bool {
				switch n := n.(type) {
				case *ast.FuncLit:
					return false
				case *ast.ReturnStmt:
					if why != "" {
						return false
					}
					if len(n.Results) != 1 {
						why = fmt.Sprintf("%s returns at %s a value -fix does not follow", fd.Name.Name, i.where(n.Pos()))
						return false
					}
					var vals []impl
					vals, why = i.values(n.Results[0], container, depth+1)
					set = append(set, vals...)
				}
				return why == ""
			})
			return set, why
		}
	}
	return nil, fmt.Sprintf("it is given %s at %s, whose dynamic type -fix does not follow", types.ExprString(e), i.where(e.Pos()))
}

// returner is the declaration of the function of the package call calls,
// with one result, when it is a plain function or method (not a function
// value nor an interface's method).
func (i impls) returner(call *ast.CallExpr) *ast.FuncDecl {
	fn := kube.CalledFunc(i.pass, call)
	if fn == nil || fn.Pkg() != i.pass.Pkg || isIfaceMethod(fn) || fn.Signature().Results().Len() != 1 {
		return nil
	}
	fd := i.funcDecl(fn.Origin())
	if fd == nil || fd.Body == nil {
		return nil
	}
	return fd
}

// holdsField reports whether t (a composite literal's type) is a struct
// with the field src.
func holdsField(t types.Type, src *types.Var) bool {
	if t == nil || !src.IsField() {
		return false
	}
	s, ok := t.Underlying().(*types.Struct)
	if !ok {
		return false
	}
	for f := range s.Fields() {
		if f.Origin() == src {
			return true
		}
	}
	return false
}
