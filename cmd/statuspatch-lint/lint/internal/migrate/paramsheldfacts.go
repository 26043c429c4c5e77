package migrate

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"slices"
	"strings"

	"golang.org/x/tools/go/analysis"
)

// The summaries of a held object, computed where its holder's package is
// analysed (ExportParamFacts): ParamsFact.Fields of a holder type's
// methods, StatusRefs of a kind's, and the text of both (paramsheld.go
// has the model and its use where the holder is made).

// objectFields are the fields of the named type t (or *t) whose type is
// an interface an object may be (mayBeObject): the fields a holder
// holds an object in.
func objectFields(t types.Type) []string {
	if p, ok := types.Unalias(t).(*types.Pointer); ok {
		t = p.Elem()
	}
	s, ok := t.Underlying().(*types.Struct)
	if !ok {
		return nil
	}
	var fields []string
	for i := 0; i < s.NumFields(); i++ {
		if f := s.Field(i); !f.Embedded() && types.IsInterface(f.Type()) && mayBeObject(f.Type()) {
			fields = append(fields, f.Name())
		}
	}
	return fields
}

// heldFields computes ParamsFact.Fields of the package's methods of
// holder types: each method's own calls on the field, then those of the
// type's methods it calls on its receiver, to a fixed point (Set and
// recomputeRootCondition call each other).
func heldFields(pass *analysis.Pass, decls map[*types.Func]*ast.FuncDecl, m *migration) map[*types.Func][]Held {
	type own struct {
		held    Held
		callees []*types.Func
	}
	owns := map[*types.Func][]own{}
	var fns []*types.Func // in source order: the same why each run
	for fn, fd := range decls {
		if fd.Recv != nil {
			fns = append(fns, fn)
		}
	}
	slices.SortFunc(fns, func(a, b *types.Func) int { return int(decls[a].Pos() - decls[b].Pos()) })
	for _, fn := range fns {
		fd := decls[fn]
		if fd.Recv == nil || len(fd.Recv.List) != 1 || len(fd.Recv.List[0].Names) != 1 || fd.Body == nil {
			continue
		}
		r, _ := pass.TypesInfo.Defs[fd.Recv.List[0].Names[0]].(*types.Var)
		if r == nil {
			continue
		}
		for _, f := range objectFields(r.Type()) {
			h, callees := m.held().fieldUse(fd, r, f)
			owns[fn] = append(owns[fn], own{h, callees})
		}
	}
	out := map[*types.Func][]Held{}
	for _, fn := range fns {
		for _, o := range owns[fn] {
			out[fn] = append(out[fn], o.held)
		}
	}
	for changed := true; changed; {
		changed = false
		for _, fn := range fns {
			os := owns[fn]
			for i, o := range os {
				h := &out[fn][i]
				for _, c := range o.callees {
					for _, ch := range out[c] {
						if ch.Field != h.Field {
							continue
						}
						if h.Why == "" && ch.Why != "" {
							h.Why, h.Calls, changed = ch.Why, nil, true
						}
						if h.Why == "" {
							if n := addCalls(h.Calls, ch.Calls...); len(n) != len(h.Calls) {
								h.Calls, changed = n, true
							}
						}
					}
				}
			}
		}
	}
	return out
}

// fieldUse is what the method fd does with the object in field of its
// receiver r: the interface's methods it calls on it, and the methods of
// its own type it calls on r (whose uses add to its own). Why says what
// else it does.
func (h held) fieldUse(fd *ast.FuncDecl, r *types.Var, field string) (Held, []*types.Func) {
	use := Held{Field: field}
	var callees []*types.Func
	use.Why = h.eachUse(fd.Body, r, fd.Body.Pos(), fd.Body.End(), func(stack []ast.Node, id *ast.Ident) string {
		line := h.where(id.Pos())
		sel, ok := stack[len(stack)-2].(*ast.SelectorExpr)
		if !ok || sel.X != id {
			return fmt.Sprintf("%s, which holds %s.%s, is handed on at %s", r.Name(), r.Name(), field, line)
		}
		s := h.pass.TypesInfo.Selections[sel]
		switch {
		case s == nil:
		case s.Kind() == types.FieldVal && (sel.Sel.Name != field || len(s.Index()) > 1):
			return "" // another field
		case s.Kind() == types.FieldVal:
			c, ok := h.ifaceCall(stack, len(stack)-2)
			if ok {
				use.Calls = addCalls(use.Calls, c)
				return ""
			}
			if b, ok := stack[len(stack)-3].(*ast.BinaryExpr); ok && (b.Op == token.EQL || b.Op == token.NEQ) {
				return "" // compared, as with nil
			}
			return fmt.Sprintf("%s.%s is handed on at %s", r.Name(), field, line)
		case len(s.Index()) > 1:
			return "" // a method of an embedded field, which does not hold it
		default:
			fn, _ := s.Obj().(*types.Func)
			if call, ok := stack[len(stack)-3].(*ast.CallExpr); ok && call.Fun == sel && fn != nil {
				callees = append(callees, fn.Origin())
				return ""
			}
		}
		return fmt.Sprintf("the method value %s.%s is taken at %s", r.Name(), sel.Sel.Name, line)
	})
	return use, callees
}

// returnsStatusRefs reports whether each result fd returns holds no
// reference, or is the status of its receiver or a part of it
// (GetConditions: return in.Status.Conditions): ParamsFact.StatusRefs.
func returnsStatusRefs(pass *analysis.Pass, fd *ast.FuncDecl) bool {
	if fd.Recv == nil || len(fd.Recv.List) != 1 || len(fd.Recv.List[0].Names) != 1 {
		return false
	}
	r := pass.TypesInfo.Defs[fd.Recv.List[0].Names[0]]
	ok := true
	ast.Inspect(fd.Body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.ReturnStmt:
			if len(n.Results) == 0 && fd.Type.Results.NumFields() > 0 {
				ok = false
			}
			for _, e := range n.Results {
				ok = ok && (!holdsRefs(pass.TypesInfo.TypeOf(e)) || statusOf(pass, e, r))
			}
		}
		return ok
	})
	return ok
}

// statusOf reports whether e is r.Status or a field, element or address
// of a part of it.
func statusOf(pass *analysis.Pass, e ast.Expr, r types.Object) bool {
	if u, ok := ast.Unparen(e).(*ast.UnaryExpr); ok && u.Op == token.AND {
		e = u.X
	}
	for {
		switch x := ast.Unparen(e).(type) {
		case *ast.SelectorExpr:
			if id, ok := ast.Unparen(x.X).(*ast.Ident); ok && pass.TypesInfo.Uses[id] == r {
				s := pass.TypesInfo.Selections[x]
				return x.Sel.Name == "Status" && s != nil && s.Kind() == types.FieldVal
			}
			e = x.X
		case *ast.IndexExpr:
			e = x.X
		default:
			return false
		}
	}
}

// heldText is the Fields and Holds of a fact, for String.
func heldText(f *ParamsFact) string {
	var parts []string
	for _, h := range f.Fields {
		parts = append(parts, "field:"+h.Field+callsText(h))
	}
	for _, h := range f.Holds {
		parts = append(parts, fmt.Sprintf("holds%d:%s%s", h.Index, h.Field, callsText(h)))
	}
	return strings.Join(parts, " ")
}

func callsText(h Held) string {
	if h.Why != "" {
		return "?"
	}
	var names []string
	for _, c := range h.Calls {
		n := c.Name
		if c.Handed {
			n += "*"
		}
		names = append(names, n)
	}
	slices.Sort(names)
	return "(" + strings.Join(names, ",") + ")"
}

// heldOf is ParamsFact.Holds of the parameter i (-1: the receiver) from
// the holders of it a function returns: one field, their calls merged;
// none when they differ in field (Unknown).
func heldOf(i int, out []Held) []Held {
	h := Held{Index: i, Field: out[0].Field}
	for _, o := range out {
		if o.Field != h.Field {
			return nil
		}
		h.Calls = addCalls(h.Calls, o.Calls...)
	}
	return []Held{h}
}
