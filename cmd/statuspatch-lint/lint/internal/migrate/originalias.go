package migrate

import (
	"go/ast"
	"go/token"
	"go/types"
)

// Which names denote one object (issue 80's model of an object's life):
// its own variable, its address, a pointer variable given it, a struct
// field holding it (a scope's s.Widget), an interface value of it, and a
// DeepCopy of any of those, which is the same object on the server in
// memory of its own, taken at a place. The forms are one table
// (aliasForms); a function's assignments close the set of names over it
// (newAliases). The read's copy (migrateread.go), the writer kept beside
// a write (migratekeptbetween.go) and the patch helper's lock
// (migratepatchhelperlock.go) ask it, not a rule of their own.

// aliasKind says how a name denotes the object.
type aliasKind int

const (
	aliasSame aliasKind = iota // the object's own memory
	aliasCopy                  // a copy: its own memory, the same object on the server
)

// An alias is how an expression denotes the object: the kind, and for a
// copy where it was taken.
type alias struct {
	kind aliasKind
	at   token.Pos // the copy's call, for aliasCopy
}

// aliasForms is the table of forms an expression takes around a name of
// the object, each unwrapping one step (nil when e is not of the form).
var aliasForms = []struct {
	form string
	kind aliasKind
	of   func(info *types.Info, e ast.Expr) ast.Expr
}{
	{"its address (&w)", aliasSame, func(_ *types.Info, e ast.Expr) ast.Expr {
		if u, ok := e.(*ast.UnaryExpr); ok && u.Op == token.AND {
			return u.X
		}
		return nil
	}},
	{"a dereference (*w)", aliasSame, func(_ *types.Info, e ast.Expr) ast.Expr {
		if s, ok := e.(*ast.StarExpr); ok {
			return s.X
		}
		return nil
	}},
	{"an interface value (client.Object(w), o.(*Kind))", aliasSame, func(info *types.Info, e ast.Expr) ast.Expr {
		switch e := e.(type) {
		case *ast.TypeAssertExpr:
			return e.X
		case *ast.CallExpr:
			if tv, ok := info.Types[e.Fun]; ok && tv.IsType() && len(e.Args) == 1 {
				return e.Args[0]
			}
		}
		return nil
	}},
	{"a DeepCopy (w.DeepCopy(), w.DeepCopyObject())", aliasCopy, deepCopied},
}

// sameInner is e without the forms around it that keep its object's
// memory (&w, *w, client.Object(w)): the name or field inside.
func sameInner(info *types.Info, e ast.Expr) ast.Expr {
	for {
		e = ast.Unparen(e)
		inner := ast.Expr(nil)
		for _, f := range aliasForms {
			if f.kind == aliasSame {
				if inner = f.of(info, e); inner != nil {
					break
				}
			}
		}
		if inner == nil {
			return e
		}
		e = inner
	}
}

// deepCopied is x of x.DeepCopy() or x.DeepCopyObject(), or nil.
func deepCopied(_ *types.Info, e ast.Expr) ast.Expr {
	call, ok := e.(*ast.CallExpr)
	if !ok || len(call.Args) != 0 {
		return nil
	}
	sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	if !ok || sel.Sel.Name != "DeepCopy" && sel.Sel.Name != "DeepCopyObject" {
		return nil
	}
	return sel.X
}

// aliases is the set of names of one object in a function: variables and
// struct fields.
type aliases struct {
	info   *types.Info
	vars   map[*types.Var]alias
	fields map[*types.Var]alias // a struct's field holding the object
}

// newAliases is the names of v's object in root: v, and what root's
// assignments, declarations and composite literals give it (w := v,
// w := &v, w := v.DeepCopy(), s.Widget = v, &scope{Widget: v}, v :=
// s.Widget, and on), to a fixed point. A field is matched by its
// declaration: every value of the struct is taken to hold the object (a
// scope of one object per reconcile).
func newAliases(info *types.Info, root ast.Node, v *types.Var) *aliases {
	return aliasesOf(info, root, v)
}

// aliasesOf is newAliases of an object several names start with (the
// parameters a call hands it to, the field s.Widget as well as a var).
func aliasesOf(info *types.Info, root ast.Node, seeds ...any) *aliases {
	a := &aliases{info: info, vars: map[*types.Var]alias{}, fields: map[*types.Var]alias{}}
	for _, seed := range seeds {
		switch seed := seed.(type) {
		case *types.Var:
			a.vars[seed] = alias{}
		case ast.Expr:
			a.add(sameInner(info, seed), alias{})
		}
	}
	if root == nil {
		return a
	}
	for grew := true; grew; {
		grew = false
		ast.Inspect(root, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.AssignStmt:
				if len(n.Lhs) == len(n.Rhs) {
					for i := range n.Lhs {
						grew = a.link(n.Lhs[i], n.Rhs[i]) || grew
					}
				}
			case *ast.ValueSpec:
				if len(n.Names) == len(n.Values) {
					for i := range n.Names {
						grew = a.link(n.Names[i], n.Values[i]) || grew
					}
				}
			case *ast.KeyValueExpr:
				if k, ok := n.Key.(*ast.Ident); ok {
					if f, _ := info.Uses[k].(*types.Var); f != nil && f.IsField() {
						grew = a.link(k, n.Value) || grew // &scope{Widget: w}
					}
				}
			}
			return true
		})
	}
	return a
}

// link adds lhs when rhs denotes the object, and rhs (a name or a field)
// when lhs does as the object itself and rhs is a pointer of it (w :=
// s.Widget, w named first); it reports whether the set grew.
func (a *aliases) link(lhs, rhs ast.Expr) bool {
	if al, ok := a.of(rhs); ok {
		if al.kind == aliasSame && !pointerOrIface(a.info.TypeOf(rhs)) {
			al = alias{kind: aliasCopy, at: rhs.Pos()} // a value copied whole
		}
		return a.add(lhs, al)
	}
	if al, ok := a.of(lhs); ok && al.kind == aliasSame && pointerOrIface(a.info.TypeOf(rhs)) {
		return a.add(rhs, al)
	}
	return false
}

// add puts the name or field e in the set, if it is one and not there.
func (a *aliases) add(e ast.Expr, al alias) bool {
	switch e := ast.Unparen(e).(type) {
	case *ast.Ident:
		v, _ := a.info.ObjectOf(e).(*types.Var)
		if v == nil || v.IsField() && a.has(a.fields, v) || !v.IsField() && a.has(a.vars, v) {
			return false
		}
		if v.IsField() {
			a.fields[v] = al // a composite literal's key
		} else {
			a.vars[v] = al
		}
		return true
	case *ast.SelectorExpr:
		if f := a.field(e); f != nil && !a.has(a.fields, f) {
			a.fields[f] = al
			return true
		}
	}
	return false
}

func (a *aliases) has(m map[*types.Var]alias, v *types.Var) bool {
	_, ok := m[v]
	return ok
}

// field is the struct field e selects, or nil.
func (a *aliases) field(e *ast.SelectorExpr) *types.Var {
	s := a.info.Selections[e]
	if s == nil || s.Kind() != types.FieldVal {
		return nil
	}
	f, _ := s.Obj().(*types.Var)
	return f
}

// of says whether e denotes the object, and how: a name or field of the
// set, or a form of aliasForms around one (a copy's place the outermost
// copy's).
func (a *aliases) of(e ast.Expr) (alias, bool) {
	e = ast.Unparen(e)
	switch e := e.(type) {
	case *ast.Ident:
		if v, _ := a.info.ObjectOf(e).(*types.Var); v != nil {
			al, ok := a.vars[v]
			return al, ok
		}
	case *ast.SelectorExpr:
		if f := a.field(e); f != nil {
			al, ok := a.fields[f]
			return al, ok
		}
	}
	for _, f := range aliasForms {
		inner := f.of(a.info, e)
		if inner == nil {
			continue
		}
		al, ok := a.of(inner)
		if ok && f.kind == aliasCopy {
			al = alias{kind: aliasCopy, at: e.Pos()}
		}
		return al, ok
	}
	return alias{}, false
}

// pointerOrIface reports whether t shares its value when copied: a
// pointer or an interface (a value struct copied is a copy).
func pointerOrIface(t types.Type) bool {
	if t == nil {
		return false
	}
	_, ptr := t.Underlying().(*types.Pointer)
	return ptr || types.IsInterface(t)
}

// handed says whether the argument e carries the object: one of its
// names (a copy too), or a value whose struct holds it in a field (a
// scope given whole); what names it for a reason ("w", "w.DeepCopy(), a
// copy of w", "s, holding w in its field Widget").
func (a *aliases) handed(e ast.Expr, v *types.Var) (string, bool) {
	if al, ok := a.of(e); ok {
		if al.kind == aliasCopy || passesObj(a.info, v, e) {
			if al.kind == aliasCopy {
				return types.ExprString(e) + ", a copy of " + v.Name() + ",", true
			}
			return v.Name(), true
		}
		return types.ExprString(e) + ", which is " + v.Name() + ",", true
	}
	t := a.info.TypeOf(e)
	if p, ok := t.(*types.Pointer); ok {
		t = p.Elem()
	}
	if t == nil {
		return "", false
	}
	st, ok := t.Underlying().(*types.Struct)
	if !ok {
		return "", false
	}
	for i := range st.NumFields() {
		if _, ok := a.fields[st.Field(i)]; ok {
			return types.ExprString(e) + ", holding " + v.Name() + " in its field " + st.Field(i).Name() + ",", true
		}
	}
	return "", false
}
