package migrate

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"slices"
	"strings"

	"golang.org/x/tools/go/ast/inspector"
)

// Writes through an alias of a part of the object (issue 80, s111): uses
// sees the mutate's writes spelled through the object (w.Spec.Size = 3),
// not those through a name sharing its memory (spec := &w.Spec; spec.Size
// = 3; l := w.Labels; l["a"] = "b"; p := w.Spec.PodName; *p = "x"), and
// a status statement reading that part moved after such a write read the
// new value. A holder is such a name, in the mutate or before it; what
// the mutate does through one decides whether the move is the same
// decision (aliasWhy).

// A holder is a variable that may share memory with a part of the object:
// the part (Spec, Status, ObjectMeta.Labels; "" for the whole object) and
// the statement that gave it to it.
type holder struct {
	field string
	at    ast.Node
}

// holders is every variable of the function around the call that may
// share memory with a part of obj: given the address of a part, or a
// map, slice, pointer or interface read from it or from another holder,
// to a fixed point. An error is not one: it carries no part of an object.
// A value that may hold a function literal capturing the object or a
// holder (closureHeld) holds the whole object, but a local function
// variable given one, whose literals callees follows.
func (ms *mutateStmts) holders() map[*types.Var]holder {
	info := ms.cs.pass.TypesInfo
	hs := map[*types.Var]holder{}
	if ms.lits == nil {
		ms.lits = funcLits(ms.cs)
	}
	link := func(at ast.Node, lhs ast.Expr, rhs ast.Expr) bool {
		v := rootVar(info, lhs)
		t := info.TypeOf(lhs)
		if v == nil || v == ms.obj || !holdsRefs(t) || types.Identical(t, types.Universe.Lookup("error").Type()) {
			return false
		}
		field, ok := ms.sharing(hs, rhs)
		if !ok && !followed(info, ms.lits, lhs, rhs) && mayHoldFunc(t, map[types.Type]bool{}) && closureHeld(ms.cs, ms.obj, ms.lits, hs, rhs) {
			field, ok = "", true // a closure capturing the object
		}
		if !ok {
			return false
		}
		old, had := hs[v]
		switch {
		case !had:
			hs[v] = holder{field: field, at: at}
		case old.field != field && old.field != "":
			hs[v] = holder{field: "", at: old.at}
		default:
			return false
		}
		return true
	}
	fc, ok := ms.cs.cursor(ms.cs.enclosingFunc())
	if !ok {
		return hs
	}
	for grew := true; grew; {
		grew = false
		for c := range fc.Preorder((*ast.AssignStmt)(nil), (*ast.ValueSpec)(nil), (*ast.RangeStmt)(nil)) {
			switch n := c.Node().(type) {
			case *ast.AssignStmt:
				for i, l := range n.Lhs {
					r := n.Rhs[0]
					if len(n.Lhs) == len(n.Rhs) {
						r = n.Rhs[i]
					}
					grew = link(n, l, r) || grew
				}
			case *ast.ValueSpec:
				for i, id := range n.Names {
					if i < len(n.Values) {
						grew = link(n, id, n.Values[i]) || grew
					} else if len(n.Values) == 1 {
						grew = link(n, id, n.Values[0]) || grew
					}
				}
			case *ast.RangeStmt:
				for _, l := range []ast.Expr{n.Key, n.Value} {
					if l != nil {
						grew = link(n, l, n.X) || grew
					}
				}
			}
		}
	}
	return hs
}

// sharing says whether e may yield memory of the object: somewhere in it
// the object or a holder, taken through its fields to a value that holds
// references or has its address taken; and the part (the first one
// found).
func (ms *mutateStmts) sharing(hs map[*types.Var]holder, e ast.Expr) (string, bool) {
	info := ms.cs.pass.TypesInfo
	ec, ok := ms.cs.cursor(e)
	if !ok {
		return "", false
	}
	for c := range ec.Preorder((*ast.Ident)(nil)) {
		field, ok := ms.partOf(hs, c)
		if !ok {
			continue
		}
		top := chainTop(c, ms.fieldSel)
		if m, ok := top.Parent().Node().(*ast.SelectorExpr); ok && strings.HasPrefix(m.Sel.Name, "DeepCopy") {
			continue // memory of its own
		}
		if u, ok := top.Parent().Node().(*ast.UnaryExpr); ok && u.Op == token.AND || holdsRefs(info.TypeOf(top.Node().(ast.Expr))) {
			return field, true
		}
	}
	return "", false
}

// fieldSel tells a selection of a field (not a method).
func (ms *mutateStmts) fieldSel(s *ast.SelectorExpr) bool {
	sel := ms.cs.pass.TypesInfo.Selections[s]
	return sel == nil || sel.Kind() == types.FieldVal
}

// partOf is the part the identifier at c reaches: a holder's, or for the
// object the field selected on it ("" for the object itself); false for
// another name.
func (ms *mutateStmts) partOf(hs map[*types.Var]holder, c inspector.Cursor) (string, bool) {
	info := ms.cs.pass.TypesInfo
	v, _ := info.Uses[c.Node().(*ast.Ident)].(*types.Var)
	if h, ok := hs[v]; ok {
		return h.field, true
	}
	if v != ms.obj {
		return "", false
	}
	sel, ok := c.Parent().Node().(*ast.SelectorExpr)
	if !ok || info.Selections[sel] == nil || info.Selections[sel].Kind() != types.FieldVal {
		return "", true
	}
	st, ok := derefStruct(ms.obj.Type())
	if !ok {
		return "", true
	}
	f := st.Field(info.Selections[sel].Index()[0]).Name()
	if f == "ObjectMeta" {
		f = metaField(sel, info.Selections[sel])
	}
	return f, true
}

// aliasWhy says why the mutate's use of holders keeps the write: a
// staying statement that may set, through a holder, the whole object,
// its status, or a part a status statement before it reads; a moving
// statement that may set a part other than the status through one, or
// that uses a holder of the status or of the whole object declared
// outside the moving statements (in the Retry it would reach the object
// CreateOrPatch had, not the one the Retry holds). A status statement's
// reads through a holder join its reads, for split's check of the sets
// after it.
func (ms *mutateStmts) aliasWhy() string {
	hs := ms.holders()
	if len(hs) == 0 {
		return ""
	}
	inMoved := func(n ast.Node) bool {
		for _, l := range ms.leaves {
			if l.status && n.Pos() >= l.node.Pos() && n.Pos() < l.node.End() {
				return true
			}
		}
		return false
	}
	part := func(f string) string {
		if f == "" {
			return ms.obj.Name()
		}
		return ms.obj.Name() + "." + strings.TrimPrefix(f, "ObjectMeta.")
	}
	info := ms.cs.pass.TypesInfo
	for j, l := range ms.leaves {
		roots, in := leafRoots(ms.cs, l)
		for k, root := range roots {
			for c := range root.Preorder((*ast.Ident)(nil)) {
				v, _ := info.Uses[c.Node().(*ast.Ident)].(*types.Var)
				h, ok := hs[v]
				if !ok {
					continue
				}
				held := fmt.Sprintf("%s holds %s in %s", ms.cs.where(h.at.Pos()), part(h.field), v.Name())
				top := chainTop(c, ms.fieldSel)
				effect := ms.mayWrite(top, c)
				at := ms.cs.where(c.Node().Pos()) + in[k]
				switch {
				case l.status && (h.field == "" || h.field == "Status") && !inMoved(h.at):
					return fmt.Sprintf("%s, which %s uses: moved into the Retry, it would reach the object CreateOrPatch had, not the one the Retry holds", held, at)
				case !effect:
					if l.status || l.cond {
						l.reads[h.field] = true
					} else if readsStatus(ms, h, c) && slices.ContainsFunc(earlierLeaves(ms.leaves, j), func(r leaf) bool { return r.status }) {
						return fmt.Sprintf("%s, which %s, a statement staying in the mutate, reads after a status statement: it would read the status CreateOrPatch read, not the one decided after it", held, at)
					}
					continue
				case l.status && h.field != "Status":
					return fmt.Sprintf("%s, through which %s, a moving statement, may set it after CreateOrPatch: -fix does not follow writes through an alias", held, at)
				case l.status:
					continue
				}
				staying := fmt.Sprintf("%s, through which %s may set it: -fix does not follow writes through an alias", held, at)
				if h.field == "" || h.field == "Status" {
					return staying
				}
				for _, r := range earlierLeaves(ms.leaves, j) {
					for f := range r.reads {
						if (r.status || r.cond) && overlap(f, h.field) {
							return staying
						}
					}
				}
			}
		}
	}
	return ""
}

// mayWrite reports whether the expression top, climbed from the holder
// id, may set memory it shares: assigned, incremented or its address
// taken through a pointer, map or slice (not the holder's own memory); a
// map, slice, pointer or interface handed to a function or method (but
// len, cap, append, a conversion and the builtins that only read), or
// sent; a method called on it (but a reader: partReaders).
func (ms *mutateStmts) mayWrite(top, id inspector.Cursor) bool {
	info := ms.cs.pass.TypesInfo
	e := top.Node().(ast.Expr)
	if setAt(top) {
		return throughRef(info, e, id.Node())
	}
	shared := holdsRefs(info.TypeOf(e))
	switch p := top.Parent().Node().(type) {
	case *ast.CallExpr:
		if ast.Unparen(p.Fun) == e {
			return true // a function value held
		}
		if tv, ok := info.Types[p.Fun]; ok && tv.IsType() {
			return false
		}
		if fn, ok := ast.Unparen(p.Fun).(*ast.Ident); ok {
			if b, ok := info.Uses[fn].(*types.Builtin); ok {
				switch b.Name() {
				case "delete", "clear":
					return true
				case "copy":
					return len(p.Args) > 0 && p.Args[0] == e
				}
				return false
			}
		}
		return shared
	case *ast.SelectorExpr:
		name := p.Sel.Name
		_, call := top.Parent().Parent().Node().(*ast.CallExpr)
		return call && !slices.ContainsFunc(partReaders, func(r string) bool { return strings.HasPrefix(name, r) })
	case *ast.SendStmt:
		return p.Value == e && shared
	}
	return false
}

// partReaders are the prefixes of the methods taken to only read their
// receiver (getters, DeepCopy, metav1.Time's comparisons, String).
var partReaders = []string{"Get", "DeepCopy", "String", "Is", "Has", "Equal", "Len", "Before", "After", "Contains"}

// throughRef reports whether writing e sets memory reached from id
// through a pointer, a map or a slice, not id's own.
func throughRef(info *types.Info, e ast.Expr, id ast.Node) bool {
	for e != id {
		switch x := e.(type) {
		case *ast.ParenExpr:
			e = x.X
		case *ast.StarExpr:
			return true
		case *ast.SelectorExpr:
			if _, ok := info.TypeOf(x.X).Underlying().(*types.Pointer); ok {
				return true
			}
			e = x.X
		case *ast.IndexExpr:
			switch info.TypeOf(x.X).Underlying().(type) {
			case *types.Map, *types.Slice, *types.Pointer:
				return true
			}
			e = x.X
		default:
			return true
		}
	}
	return false
}

// readsStatus reports whether the read of the holder h at c may read
// the object's status: h holds it, or h holds the whole object and the
// expression climbed from c reaches a value of the object's type whose
// Status it selects, whose kind's own method it calls, or which it uses
// whole.
func readsStatus(ms *mutateStmts, h holder, c inspector.Cursor) bool {
	switch h.field {
	case "Status":
		return true
	case "":
	default:
		return false
	}
	info := ms.cs.pass.TypesInfo
	isObj := func(t types.Type) bool {
		if p, ok := ms.obj.Type().Underlying().(*types.Pointer); ok && t != nil && types.Identical(t, p.Elem()) {
			return true
		}
		return t != nil && types.Identical(t, ms.obj.Type())
	}
	for cur := c; ; cur = cur.Parent() {
		e := cur.Node().(ast.Expr)
		switch n := cur.Parent().Node().(type) {
		case *ast.SelectorExpr:
			if n.X != e {
				return false
			}
			if isObj(info.TypeOf(e)) {
				sel := info.Selections[n]
				if sel == nil || sel.Kind() != types.FieldVal {
					return sel == nil || len(sel.Index()) == 1
				}
				return n.Sel.Name == "Status"
			}
		case *ast.IndexExpr:
			if n.X != e {
				return false
			}
		case *ast.StarExpr, *ast.ParenExpr:
		default:
			return isObj(info.TypeOf(e))
		}
	}
}
