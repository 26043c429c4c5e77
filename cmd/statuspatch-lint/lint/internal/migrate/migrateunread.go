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

// An object the write's function makes (&Kind{...}, Kind{...}, new(Kind))
// and writes before anything gave it a resourceVersion (s112): no Get,
// Create or other call handed it, no resourceVersion or other metadata
// set on it. Its write sends no resourceVersion (the audit's blind,
// lint/unread.go); a patcher over it refuses its Flush ("object has no
// resourceVersion: it was not read from the API server"), so moving the
// write onto New<Kind>StatusPatcher would make a write that was stored
// one that always fails (at d4979aa7 a merge patch of it moved so, its
// base a DeepCopy of the made object). It stays, naming the line and the
// Fetch that reads it.

// unreadWhy says why m's write stays when its object is made in the
// function and unread at the write; "" otherwise.
func unreadWhy(m *migration) string {
	def, val := m.definition(m.obj)
	if def == nil || !madeValue(m.pass.TypesInfo, val) {
		return ""
	}
	fn := m.enclosingFunc()
	l := newLife(&m.site, m.obj)
	if l == nil {
		return ""
	}
	for cur := range m.usesOf(fn, m.obj, def.End(), fn.End()) {
		if cur.Node().Pos() >= m.call.Pos() && cur.Node().End() <= m.call.End() {
			continue // the write's own arguments
		}
		if cur.Node().Pos() >= m.call.Pos() && !l.reaches(cur.Node().Pos(), m.call.Pos()) {
			continue // after the write, on no path back to it
		}
		if mayGiveRV(m.pass.TypesInfo, cur) {
			return ""
		}
	}
	return fmt.Sprintf("%s is made at %s and not read from the server before the write: it has no resourceVersion, and a patcher over it refuses its Flush (object has no resourceVersion); read it with Fetch%s(ctx, c, key) and set its status on the object that patcher holds",
		m.obj.Name(), m.where(def.Pos()), m.patcherType)
}

// madeValue reports whether e makes a new object: a composite literal,
// its address, or new(T).
func madeValue(info *types.Info, e ast.Expr) bool {
	e = ast.Unparen(e)
	if u, ok := e.(*ast.UnaryExpr); ok && u.Op == token.AND {
		e = ast.Unparen(u.X)
	}
	switch e := e.(type) {
	case *ast.CompositeLit:
		return !literalSetsRV(e)
	case *ast.CallExpr:
		id, _ := ast.Unparen(e.Fun).(*ast.Ident)
		b, ok := info.Uses[id].(*types.Builtin)
		return ok && b.Name() == "new"
	}
	return false
}

// literalSetsRV reports whether a kind's literal gives its metadata a
// value other than a literal without a resourceVersion.
func literalSetsRV(lit *ast.CompositeLit) bool {
	for _, el := range lit.Elts {
		kv, ok := el.(*ast.KeyValueExpr)
		if !ok {
			return true // positional: not followed
		}
		if k, ok := kv.Key.(*ast.Ident); !ok || k.Name != "ObjectMeta" {
			continue
		}
		meta, ok := ast.Unparen(kv.Value).(*ast.CompositeLit)
		if !ok {
			return true // another object's metadata
		}
		for _, mel := range meta.Elts {
			if mkv, ok := mel.(*ast.KeyValueExpr); !ok || types.ExprString(mkv.Key) == "ResourceVersion" {
				return true
			}
		}
	}
	return false
}

// mayGiveRV reports whether the use of the object at cur may give it a
// resourceVersion: handed to a call (a Get, a Create, a helper) other
// than its DeepCopy, a getter or a setter but SetResourceVersion's; its
// metadata or resourceVersion assigned or handed on; assigned whole or
// aliased. A field of its spec or status read, set or handed on is not.
func mayGiveRV(info *types.Info, cur inspector.Cursor) bool {
	top := chainTop(cur, nil)
	path := types.ExprString(top.Node().(ast.Expr))
	meta := strings.Contains(path, ".ObjectMeta") || strings.Contains(path, ".ResourceVersion")
	switch p := top.Parent().Node().(type) {
	case *ast.CallExpr:
		if sel, ok := top.Node().(*ast.SelectorExpr); ok && p.Fun == sel {
			// A method called on it or a part of it: w.DeepCopy(),
			// w.GetName(), w.SetLabels(l), w.Status.SetCondition(c).
			name := sel.Sel.Name
			return !(name == "DeepCopy" || name == "DeepCopyObject" || strings.HasPrefix(name, "Get") && name != "Get" ||
				strings.HasPrefix(name, "Set") && name != "SetResourceVersion" && name != "SetUnstructuredContent")
		}
		return !slices.Contains(p.Args, top.Node().(ast.Expr)) || !statusOrSpec(path) // handed to a call
	case *ast.AssignStmt:
		for _, l := range p.Lhs {
			if l == top.Node() {
				return meta || top.Node() == cur.Node() // its metadata, or itself, assigned
			}
		}
		return top.Node() == cur.Node() || holdsRefs(info.TypeOf(top.Node().(ast.Expr))) && meta // aliased
	case *ast.UnaryExpr:
		if p.Op == token.AND {
			// Its address taken: of its spec or status (handed to
			// meta.SetStatusCondition), no resourceVersion reached.
			return meta || !statusOrSpec(path)
		}
	}
	return top.Node() == cur.Node() // the object itself elsewhere: returned, sent, stored
}

// statusOrSpec reports whether path (w.Status.Conditions) is a part of
// the object's status or spec, which holds no resourceVersion.
func statusOrSpec(path string) bool {
	_, rest, ok := strings.Cut(path, ".")
	return ok && (rest == "Status" || rest == "Spec" || strings.HasPrefix(rest, "Status.") || strings.HasPrefix(rest, "Spec."))
}
