package migrate

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"iter"

	"github.com/statuspatch/statuspatch/cmd/statuspatch-lint/internal/kube"
	"golang.org/x/tools/go/ast/inspector"
)

// The copy of a read: obj := old.DeepCopy(), where old was read just
// before, unchanged since, by c.Get(ctx, key, old) (or c.Get(ctx, key,
// &old) of a value, kueue's ClusterQueue) in the function or by a getter
// of the package that only reads it (getter.go's shape below), and no
// name of old's object (originalias.go) writes it between the copy and
// the write. The object then holds exactly what the server stored at its
// resourceVersion, the base an Update of obj sends that resourceVersion
// with: the patcher is made from obj after the copy, one life with its
// base at the copy. A write of old outside its status between the read
// and the copy whose answer is decoded into old and whose error returns
// is a read again, and a change it stores on every path on does not
// count; uses that only read old between (getters, ContainsFinalizer) do
// not either (migratereadfresh.go). A copy of a read changed or written
// otherwise before the copy, or whose original is written after it,
// stays, naming that line (copiedReadWhy).

// A readCopy is obj := old.DeepCopy() after old's read: why the copy is
// not the read's ("" when it is).
type readCopy struct {
	why string
}

// copyOfRead reports whether s is obj := old.DeepCopy() (or obj =
// old.DeepCopy()) with old read, unchanged, before s in list.
func (m reads) copyOfRead(list []ast.Stmt, i int) bool {
	c := readCopyAt(m, list, i)
	return c != nil && c.why == ""
}

// copiedReadWhy says why the last copy of a read before the write, in a
// block enclosing it, is not what the server stored; "" when there is
// none such.
func copiedReadWhy(m reads) string {
	why := ""
	for _, list := range m.enclosingLists() {
		for i, s := range list {
			if s.End() > m.call.Pos() {
				break
			}
			if c := readCopyAt(m, list, i); c != nil {
				why = c.why
			}
		}
		if why != "" {
			return why
		}
	}
	return ""
}

// readCopyAt is list[i] as obj := old.DeepCopy() with old's read before it
// in list, or nil when it is not one.
func readCopyAt(m reads, list []ast.Stmt, i int) *readCopy {
	as, ok := list[i].(*ast.AssignStmt)
	if !ok || len(as.Lhs) != 1 || len(as.Rhs) != 1 {
		return nil
	}
	if id, ok := as.Lhs[0].(*ast.Ident); !ok || m.pass.TypesInfo.ObjectOf(id) != m.obj {
		return nil
	}
	call, ok := ast.Unparen(as.Rhs[0]).(*ast.CallExpr)
	if !ok || deepCopied(m.pass.TypesInfo, call) == nil {
		return nil
	}
	old := identOf(m.pass, deepCopied(m.pass.TypesInfo, call))
	if old == nil || !types.Identical(old.Type(), m.obj.Type()) && !types.Identical(types.NewPointer(old.Type()), m.obj.Type()) {
		return nil
	}
	read := &migration{site: m.site, obj: old}
	for j := i - 1; j >= 0; j-- {
		if !read.reads().isGetStmt(list[j]) && !read.reads().isGetterStmt(list[j]) {
			continue
		}
		copied := fmt.Sprintf("%s is %s at %s, a copy of %s's read at %s", m.obj.Name(), types.ExprString(call), m.where(call.Pos()), old.Name(), m.where(list[j].Pos()))
		fresh := refreshes(m, old, list[j].End(), as.Pos()) // migratereadfresh.go
		if w := writeOfBetween(m, old, list[j].End(), as.Pos(), fresh); w != nil {
			if dryRun(w, decodeVerb(m, w)) {
				return &readCopy{why: fmt.Sprintf("%s, but %s at %s, between them, is or may be a dry run (client.DryRunAll, or options -fix cannot read there): what it decodes into %s may not be stored, and -fix makes the patcher at a copy only of an object unchanged since its read", copied, types.ExprString(w.Fun), m.where(w.Pos()), old.Name())}
			}
			if m.decodesInto(w, newAliases(m.pass.TypesInfo, m.enclosingFunc(), old)) {
				return &readCopy{why: fmt.Sprintf("%s, but %s writes %s at %s, between them, and its error does not return there: where it fails, %s keeps what was not stored, and -fix makes the patcher at a copy only of an object unchanged since its read or a write that returns on its error", copied, types.ExprString(w.Fun), old.Name(), m.where(w.Pos()), old.Name())}
			}
			return &readCopy{why: fmt.Sprintf("%s, but %s writes %s at %s, between them: -fix makes the patcher at a copy only of an object unchanged since its read", copied, types.ExprString(w.Fun), old.Name(), m.where(w.Pos()))}
		}
		if c, changed := changeBetween(read.reads(), list[j].End(), as.Pos(), fresh); changed {
			return &readCopy{why: fmt.Sprintf("%s, but %s is changed or handed on at %s (%s), between them: the copy may not be what the server stored, and -fix makes the patcher at a copy only of an object unchanged since its read", copied, old.Name(), m.where(c.Pos()), types.ExprString(c))}
		}
		if w := writeOfBetween(m, old, as.End(), m.call.Pos(), nil); w != nil {
			return &readCopy{why: fmt.Sprintf("%s, and %s writes %s at %s, after the copy and before this write: it moves the resourceVersion the patcher's base holds", copied, types.ExprString(w.Fun), old.Name(), m.where(w.Pos()))}
		}
		return &readCopy{}
	}
	return nil
}

// writeOfBetween is the first client write (Update, Patch, a status write) in the
// write's function, from from to to, of a name of old's object other
// than the write's own object and its names, and other than fresh's
// (writes that leave it what the server stored); nil when none.
func writeOfBetween(m reads, old *types.Var, from, to token.Pos, fresh map[*ast.CallExpr]ast.Stmt) *ast.CallExpr {
	fn := m.enclosingFunc()
	root, ok := m.cursor(fn)
	if !ok {
		return nil
	}
	olds, own := newAliases(m.pass.TypesInfo, fn, old), newAliases(m.pass.TypesInfo, fn, m.obj)
	for cur := range root.Preorder((*ast.CallExpr)(nil)) {
		call := cur.Node().(*ast.CallExpr)
		if _, ok := fresh[call]; ok || call.Pos() < from || call.Pos() >= to || len(call.Args) < 2 {
			continue
		}
		verb := m.clientWrite(call)
		if _, status := statusReceiver(call); !status && verb != "Update" && verb != "Patch" {
			continue
		}
		al, ok := olds.of(call.Args[1])
		if !ok {
			continue
		}
		if _, mine := own.of(call.Args[1]); mine && al.kind == aliasCopy {
			continue // the write's own copy
		}
		return call // the original, or another copy of it
	}
	return nil
}

// isGetterStmt reports whether s is obj, err := getter(...) (or =) where
// getter is a function of the package of the reading shape.
func (m reads) isGetterStmt(s ast.Stmt) bool {
	as, ok := s.(*ast.AssignStmt)
	if !ok || len(as.Lhs) != 2 || len(as.Rhs) != 1 {
		return false
	}
	if id, ok := as.Lhs[0].(*ast.Ident); !ok || m.pass.TypesInfo.ObjectOf(id) != m.obj {
		return false
	}
	call, ok := ast.Unparen(as.Rhs[0]).(*ast.CallExpr)
	if !ok {
		return false
	}
	fn := kube.CalledFunc(m.pass, call)
	return fn != nil && fn.Pkg() == m.pass.Pkg && m.isReadingGetter(fn)
}

// returnsNilFirst reports whether body is one return statement whose first
// result is nil.
func returnsNilFirst(body *ast.BlockStmt) bool {
	if len(body.List) != 1 {
		return false
	}
	ret, ok := body.List[0].(*ast.ReturnStmt)
	return ok && len(ret.Results) == 2 && isNil(ret.Results[0])
}

func isNil(e ast.Expr) bool {
	id, ok := ast.Unparen(e).(*ast.Ident)
	return ok && id.Name == "nil"
}

// changeBetween is the first use of m.obj in its function between from
// and to, by any name of its memory (originalias.go: p := &w, a scope's
// s.obj), other than a read of a field of it (the outermost expression of the
// use), a use onlyReads shows read (a getter, ContainsFinalizer; not
// another DeepCopy: its write, even through a patcher, would move the
// resourceVersion), or a call of a function value when a function
// literal there uses such a name (grow := func() { w.Status.Size++ }); and
// whether there is one. A use in one of fresh's writes, and a change one
// of them stores on every path on (refreshed), do not count
// (migratereadfresh.go).
func changeBetween(m reads, from, to token.Pos, fresh map[*ast.CallExpr]ast.Stmt) (ast.Expr, bool) {
	field := func(sel *ast.SelectorExpr) bool {
		s := m.pass.TypesInfo.Selections[sel]
		return s != nil && s.Kind() == types.FieldVal
	}
	for c := range memoryUses(m, from, to) {
		use := c.Node().(ast.Expr)
		if inFresh(fresh, use) {
			continue
		}
		if call, ok := use.(*ast.CallExpr); ok {
			if refreshed(m, fresh, call) {
				continue
			}
			return call, true // a closure over the object
		}
		if sel, ok := c.Parent().Node().(*ast.SelectorExpr); !ok || sel.X != c.Node() || !field(sel) {
			if onlyReads(m, c) || refreshed(m, fresh, use) {
				continue
			}
			if p, ok := c.Parent().Node().(ast.Expr); ok {
				use = p // &obj, obj.Method
			}
			return use, true
		}
		top := chainTop(c, field)
		e := top.Node().(ast.Expr)
		changed := false
		switch p := top.Parent().Node().(type) {
		case *ast.SelectorExpr:
			changed = !onlyReads(m, top) // a method of a field may change it
		case *ast.AssignStmt:
			changed = isLHS(p, e)
		case *ast.IncDecStmt:
			changed = true
		case *ast.RangeStmt:
			changed = p.X != e
		case *ast.UnaryExpr:
			changed = p.Op == token.AND
		}
		if changed && !refreshed(m, fresh, e) {
			return e, true
		}
	}
	return nil, false
}

// memoryUses yields, in source order from from to to in m's function,
// each name of m.obj's own memory (its variable, a pointer or interface
// given it, a struct field holding it: not a copy), each variable given
// a reference into it (st := &w.Status, a slice or map of it) and, when a function
// literal of the function uses one, each call of a function value.
func memoryUses(m reads, from, to token.Pos) iter.Seq[inspector.Cursor] {
	fn := m.enclosingFunc()
	names := newAliases(m.pass.TypesInfo, fn, m.obj)
	own := func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.Ident:
			v, _ := m.pass.TypesInfo.Uses[n].(*types.Var)
			al, ok := names.vars[v]
			return v != nil && ok && al.kind == aliasSame
		case *ast.SelectorExpr:
			f := names.field(n)
			al, ok := names.fields[f]
			return f != nil && ok && al.kind == aliasSame
		}
		return false
	}
	refs := map[*types.Var]bool{} // st := &w.Status, l := w.Status.Conditions
	rooted := func(e ast.Expr) bool {
		for {
			switch x := ast.Unparen(e).(type) {
			case *ast.SelectorExpr:
				if own(x) {
					return true
				}
				e = x.X
			case *ast.IndexExpr:
				e = x.X
			case *ast.StarExpr:
				e = x.X
			case *ast.Ident:
				v, _ := m.pass.TypesInfo.Uses[x].(*types.Var)
				return own(x) || refs[v]
			default:
				return false
			}
		}
	}
	for grew := true; grew; {
		grew = false
		ast.Inspect(fn, func(n ast.Node) bool {
			as, ok := n.(*ast.AssignStmt)
			if !ok || len(as.Lhs) != len(as.Rhs) {
				return true
			}
			for i, l := range as.Lhs {
				v := identOf(m.pass, l)
				r := ast.Unparen(as.Rhs[i])
				if u, ok := r.(*ast.UnaryExpr); ok && u.Op == token.AND {
					r = u.X
				} else if !sharesMemory(m.pass.TypesInfo.TypeOf(r)) {
					continue
				}
				if v != nil && !refs[v] && rooted(r) {
					refs[v], grew = true, true
				}
			}
			return true
		})
	}
	ownOrRef := func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok {
			if v, _ := m.pass.TypesInfo.Uses[id].(*types.Var); v != nil && refs[v] {
				return true
			}
		}
		return own(n)
	}
	captured := false
	ast.Inspect(fn, func(n ast.Node) bool {
		if lit, ok := n.(*ast.FuncLit); ok && lit != fn {
			ast.Inspect(lit.Body, func(n ast.Node) bool {
				captured = captured || ownOrRef(n)
				return !captured
			})
		}
		return !captured
	})
	return func(yield func(inspector.Cursor) bool) {
		root, ok := m.cursor(fn)
		if !ok {
			return
		}
		for c := range root.Preorder((*ast.Ident)(nil), (*ast.SelectorExpr)(nil), (*ast.CallExpr)(nil)) {
			n := c.Node()
			if n.Pos() < from || n.Pos() >= to {
				continue
			}
			if call, ok := n.(*ast.CallExpr); ok {
				if !captured || !callsValue(m.pass.TypesInfo, call) {
					continue
				}
			} else if !ownOrRef(n) {
				continue
			}
			if !yield(c) {
				return
			}
		}
	}
}

// sharesMemory reports whether a value of t refers to memory it was
// taken from: a pointer, slice, map, interface or function.
func sharesMemory(t types.Type) bool {
	if t == nil {
		return true
	}
	switch t.Underlying().(type) {
	case *types.Pointer, *types.Slice, *types.Map, *types.Interface, *types.Signature, *types.Chan:
		return true
	}
	return false
}

// callsValue reports whether call calls a function value (a variable, a
// literal), not a declared function or method.
func callsValue(info *types.Info, call *ast.CallExpr) bool {
	switch fun := ast.Unparen(call.Fun).(type) {
	case *ast.FuncLit:
		return true
	case *ast.Ident:
		_, ok := info.Uses[fun].(*types.Var)
		return ok
	case *ast.SelectorExpr:
		_, ok := info.Uses[fun.Sel].(*types.Var)
		return ok // a field of function type
	}
	return false
}
