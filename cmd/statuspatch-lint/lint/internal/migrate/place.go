package migrate

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"iter"
	"path/filepath"
	"slices"

	"golang.org/x/tools/go/ast/inspector"

	"github.com/statuspatch/statuspatch/cmd/statuspatch-lint/internal/kube"
)

// A place is where a status write's call sits in its file: the path from
// the call up to the file, the function and the blocks around it, where a
// variable is defined and used there, and how a reason names a line. It
// holds the package's calls and the call's position, nothing of what
// follows the object from there, which is site's (migratesite.go).
type place struct {
	calls
	file *ast.File
	path []ast.Node // from the write's call up to the file
	call *ast.CallExpr
}

// definition returns the statement in a block enclosing the write that
// declares v (v := x or var v = x) and the value it gets.
func (pl *place) definition(v *types.Var) (ast.Stmt, ast.Expr) {
	if v == nil {
		return nil, nil
	}
	for _, list := range pl.enclosingLists() {
		for _, s := range list {
			if s.End() > pl.call.Pos() {
				break
			}
			switch s := s.(type) {
			case *ast.AssignStmt:
				if s.Tok == token.DEFINE && len(s.Lhs) == 1 && len(s.Rhs) == 1 && pl.defines(s.Lhs[0], v) {
					return s, s.Rhs[0]
				}
				if s.Tok == token.DEFINE && pl.commaOK(s) && pl.defines(s.Lhs[0], v) {
					return s, s.Rhs[0] // v, ok := m[k] or v, ok := x.(T)
				}
			case *ast.DeclStmt:
				gd, _ := s.Decl.(*ast.GenDecl)
				if gd == nil || len(gd.Specs) != 1 {
					continue
				}
				vs, _ := gd.Specs[0].(*ast.ValueSpec)
				if vs != nil && len(vs.Names) == 1 && len(vs.Values) == 1 && pl.defines(vs.Names[0], v) {
					return s, vs.Values[0]
				}
			}
		}
	}
	return nil, nil
}

func (pl *place) defines(e ast.Expr, v *types.Var) bool {
	id, ok := e.(*ast.Ident)
	return ok && pl.pass.TypesInfo.Defs[id] == v
}

// enclosingLists returns the statement lists enclosing the write, inner
// first, up to its function's body.
func (pl *place) enclosingLists() [][]ast.Stmt {
	var lists [][]ast.Stmt
	for i, n := range pl.path {
		switch n := n.(type) {
		case *ast.BlockStmt:
			lists = append(lists, n.List)
		case *ast.CaseClause:
			lists = append(lists, n.Body)
		case *ast.CommClause:
			lists = append(lists, n.Body)
		case *ast.FuncLit, *ast.FuncDecl:
			if !deferredAt(pl.path, i) {
				return lists
			}
		}
	}
	return lists
}

// configRoot returns the constructor call a configuration's builder chain
// starts from: ac itself, or the value of ac's definition in a block
// enclosing the write.
func (pl *place) configRoot(ac ast.Expr) *ast.CallExpr {
	if id, ok := ac.(*ast.Ident); ok {
		v, _ := pl.pass.TypesInfo.Uses[id].(*types.Var)
		_, val := pl.definition(v)
		if val == nil {
			return nil
		}
		ac = val
	}
	for range kube.MaxDepth {
		call, ok := ast.Unparen(ac).(*ast.CallExpr)
		if !ok {
			return nil
		}
		sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
		if !ok {
			return call
		}
		inner, ok := ast.Unparen(sel.X).(*ast.CallExpr)
		if !ok {
			if fn := kube.CalledFunc(pl.pass, call); fn == nil || fn.Signature().Recv() != nil {
				return nil // a method of a variable: not built here
			}
			return call
		}
		ac = inner
	}
	return nil
}

// declaredBefore says why e cannot be evaluated at pos: it uses a local
// variable declared after it.
func (pl *place) declaredBefore(e ast.Expr, pos token.Pos) string {
	why := ""
	ast.Inspect(e, func(n ast.Node) bool {
		id, ok := n.(*ast.Ident)
		if !ok || why != "" {
			return why == ""
		}
		if v, ok := pl.pass.TypesInfo.Uses[id].(*types.Var); ok && !v.IsField() && v.Parent() != pl.pass.Pkg.Scope() && v.Pos() >= pos {
			why = "the field owner " + types.ExprString(e) + " uses " + id.Name + ", declared after the read the patcher is made at"
		}
		return true
	})
	return why
}

// enclosingStmt returns the statement of a block that holds the write.
func (pl *place) enclosingStmt() ast.Stmt {
	for i, n := range pl.path {
		if i+1 >= len(pl.path) {
			break
		}
		s, ok := n.(ast.Stmt)
		if !ok {
			continue
		}
		switch pl.path[i+1].(type) {
		case *ast.BlockStmt, *ast.CaseClause, *ast.CommClause:
			return s
		case *ast.FuncLit, *ast.FuncDecl:
			if !deferredAt(pl.path, i+1) {
				return nil
			}
		}
	}
	return nil
}

// eachUse calls check with the path from root to each use of v between
// from and to, until one returns why it is a problem, and returns that.
// The path is the use's cursor's (cursor.go), root first.
func (pl *place) eachUse(root ast.Node, v *types.Var, from, to token.Pos, check func(stack []ast.Node, id *ast.Ident) string) string {
	if _, ok := pl.cursor(root); !ok {
		return "the uses of " + v.Name() + " are not in the package's syntax"
	}
	for c := range pl.usesOf(root, v, from, to) {
		if why := check(stackFrom(root, c), c.Node().(*ast.Ident)); why != "" {
			return why
		}
	}
	return ""
}

// enclosingFunc is the function whose life holds the write: the
// declaration or literal around it, past a deferred literal (defer
// func() { ... }()), which runs as the function returns, on the objects
// it read (life.go).
func (pl *place) enclosingFunc() ast.Node {
	for i, n := range pl.path {
		switch n.(type) {
		case *ast.FuncLit, *ast.FuncDecl:
			if !deferredAt(pl.path, i) {
				return n
			}
		}
	}
	return pl.file
}

// isResult reports whether v is a named result of the function.
func (pl *place) isResult(v types.Object) bool {
	var ft *ast.FuncType
	switch f := pl.enclosingFunc().(type) {
	case *ast.FuncDecl:
		ft = f.Type
	case *ast.FuncLit:
		ft = f.Type
	}
	return ft == nil || ft.Results != nil && ft.Results.Pos() <= v.Pos() && v.Pos() < ft.Results.End()
}

// blockScope returns the scope of the block whose statement list holds s
// (a function's body: the function's scope).
func (pl *place) blockScope(s ast.Stmt) *types.Scope {
	b := pl.block(s)
	if b == nil {
		return nil
	}
	if sc := pl.pass.TypesInfo.Scopes[b]; sc != nil {
		return sc
	}
	switch f := pl.enclosingFunc().(type) {
	case *ast.FuncDecl:
		if f.Body == b {
			return pl.pass.TypesInfo.Scopes[f.Type]
		}
	case *ast.FuncLit:
		if f.Body == b {
			return pl.pass.TypesInfo.Scopes[f.Type]
		}
	}
	return nil
}

// blockEnd is where the block holding s ends.
func (pl *place) blockEnd(s ast.Stmt) token.Pos {
	if b := pl.block(s); b != nil {
		return b.End()
	}
	return pl.enclosingFunc().End()
}

// block returns the block or clause of the write's function whose
// statement list holds s.
func (pl *place) block(s ast.Stmt) ast.Node {
	var found ast.Node
	pl.stmtLists(func(owner ast.Node, list []ast.Stmt) bool {
		if slices.Contains(list, s) {
			found = owner
		}
		return found == nil
	})
	return found
}

// stmtLists calls f with each block or clause of the write's function
// (not of the function literals inside it) and its statement list, in
// source order, until f returns false.
func (pl *place) stmtLists(f func(owner ast.Node, list []ast.Stmt) bool) {
	fn, more := pl.enclosingFunc(), true
	deferred := map[*ast.FuncLit]bool{}
	ast.Inspect(fn, func(n ast.Node) bool {
		if !more {
			return false
		}
		switch b := n.(type) {
		case *ast.BlockStmt:
			more = f(n, b.List)
		case *ast.CaseClause:
			more = f(n, b.Body)
		case *ast.CommClause:
			more = f(n, b.Body)
		case *ast.DeferStmt:
			if lit, ok := b.Call.Fun.(*ast.FuncLit); ok {
				deferred[lit] = true
			}
		case *ast.FuncLit:
			return n == fn || deferred[b]
		}
		return more
	})
}

// assignedNext reports whether the first use of v after pos in the
// function sets it (or there is none). A use in a function literal, which
// may run at any time (a deferred one reading err), and a return without
// results after pos, where v is a named result (it returns v), read it
// (s117's adversary: namedWarn, deferReadsErr, closureReadsErr).
func (pl *place) assignedNext(v types.Object, pos token.Pos) bool {
	fn := pl.enclosingFunc()
	root, ok := pl.cursor(fn)
	if !ok {
		return false
	}
	for c := range pl.usesOf(fn, v, fn.Pos(), fn.End()) {
		for e := range c.Enclosing((*ast.FuncLit)(nil)) {
			if e.Node() == fn {
				break // fn's own literal, and those around it
			}
			return false
		}
	}
	if pl.isResult(v) {
		for c := range root.Preorder((*ast.ReturnStmt)(nil)) {
			if ret := c.Node().(*ast.ReturnStmt); ret.Pos() > pos && len(ret.Results) == 0 && enclosingFn(c).Node() == fn {
				return false
			}
		}
	}
	for c := range pl.usesOf(fn, v, pos, fn.End()) {
		as, ok := c.Parent().Node().(*ast.AssignStmt)
		return ok && isLHS(as, c.Node())
	}
	return true
}

// uses counts the uses of v in the file.
func (pl *place) uses(v *types.Var) int {
	n := 0
	ast.Inspect(pl.file, func(node ast.Node) bool {
		if id, ok := node.(*ast.Ident); ok && pl.pass.TypesInfo.Uses[id] == v {
			n++
		}
		return true
	})
	return n
}

// paramOf returns the name of the function (or "a function literal") of
// which v is a parameter, or "".
func (pl *place) paramOf(v *types.Var) string {
	var ft *ast.FuncType
	name := "a function literal"
	switch f := pl.enclosingFunc().(type) {
	case *ast.FuncDecl:
		ft, name = f.Type, f.Name.Name
	case *ast.FuncLit:
		ft = f.Type
	default:
		return ""
	}
	for _, field := range ft.Params.List {
		for _, n := range field.Names {
			if pl.pass.TypesInfo.Defs[n] == v {
				return name
			}
		}
	}
	return ""
}

// where names the line of pos as a finding about the write says it: "line
// N" in the write's file, "file.go:N" in another (a function the object
// was handed to) or without a write (a ParamsFact's Why).
func (pl *place) where(pos token.Pos) string {
	at := pl.pass.Fset.Position(pos)
	if pl.call != nil && pl.file != nil && pl.pass.Fset.File(pl.file.Pos()) != nil && pl.pass.Fset.File(pl.file.Pos()).Name() == at.Filename {
		return fmt.Sprintf("line %d", at.Line)
	}
	return fmt.Sprintf("%s:%d", filepath.Base(at.Filename), at.Line)
}

// usesOf yields the cursor of each use of v in root between from and to,
// in source order: its parents are Parent's, not a stack kept by hand.
func (pl *place) usesOf(root ast.Node, v types.Object, from, to token.Pos) iter.Seq[inspector.Cursor] {
	return func(yield func(inspector.Cursor) bool) {
		cur, ok := pl.cursor(root)
		if !ok {
			return
		}
		for c := range cur.Preorder((*ast.Ident)(nil)) {
			id := c.Node().(*ast.Ident)
			if id.Pos() < from || id.Pos() >= to || pl.pass.TypesInfo.Uses[id] != v {
				continue
			}
			if !yield(c) {
				return
			}
		}
	}
}

// funcText names the function holding the write, for a reason: "this
// function" for a declared one; a function literal by its line, which
// "this function" would leave the reader to take for the declaration
// around it.
func (pl *place) funcText() string {
	if lit, ok := pl.enclosingFunc().(*ast.FuncLit); ok {
		return fmt.Sprintf("the function literal at line %d", pl.pass.Fset.Position(lit.Pos()).Line)
	}
	return "this function"
}

// outerParamOf is paramOf for the function holding the write and the
// functions around it: a function literal's write of a parameter of its
// declaration names the declaration.
func (pl *place) outerParamOf(v *types.Var) string {
	if v == nil {
		return ""
	}
	inner := ""
	for _, n := range pl.path {
		var ft *ast.FuncType
		name := "a function literal"
		switch f := n.(type) {
		case *ast.FuncDecl:
			ft, name = f.Type, f.Name.Name
		case *ast.FuncLit:
			ft = f.Type
			if inner == "" {
				inner = fmt.Sprintf(" (the write is in the function literal at line %d)", pl.pass.Fset.Position(f.Pos()).Line)
			}
		default:
			continue
		}
		for _, field := range ft.Params.List {
			for _, id := range field.Names {
				if pl.pass.TypesInfo.Defs[id] == v {
					if n == pl.enclosingFunc() {
						return name
					}
					return name + inner
				}
			}
		}
	}
	return ""
}
