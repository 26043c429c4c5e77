package migrate

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"path/filepath"
	"slices"

	"github.com/statuspatch/statuspatch/cmd/statuspatch-lint/internal/kube"
)

// site is a status write's call in its file: the statements and blocks of
// the function around it, where a variable is defined and used, and the
// text edits made there (migratetext.go).
type site struct {
	calls
	file *ast.File
	path []ast.Node // from the write's call up to the file
	call *ast.CallExpr

	localDepth    int            // how many locals deep followLocal is, in the function followed (migratelocal.go)
	intoParams    []*types.Var   // the parameters followInto is in (migratelocal.go)
	paramsEntered int            // how many parameters followInto entered
	following     []*types.Func  // the package's functions checkCallee is in (migrateedit.go)
	compose       bool           // a helper's write of the object is the caller's, through its patcher (migratehelper.go)
	holding       *holding       // ParamsFact.Holds is being computed (paramsheld.go)
	keeping       []*types.Var   // the fields of other values whose holders are followed (lifekept.go)
	returning     *returning     // the package's function checkCallee checks, whose returned references its caller follows (migrateedit.go)
	litsFollowing []*ast.FuncLit // the function values' literals checkValues is in (refsfuncvalue.go)
	unsent        bool           // a status subresource write: changes outside the status are left unsent, as by the patcher made with WithNonStatusChangesUnsent (migrateunsent.go)
}

// definition returns the statement in a block enclosing the write that
// declares v (v := x or var v = x) and the value it gets.
func (si *site) definition(v *types.Var) (ast.Stmt, ast.Expr) {
	if v == nil {
		return nil, nil
	}
	for _, list := range si.enclosingLists() {
		for _, s := range list {
			if s.End() > si.call.Pos() {
				break
			}
			switch s := s.(type) {
			case *ast.AssignStmt:
				if s.Tok == token.DEFINE && len(s.Lhs) == 1 && len(s.Rhs) == 1 && si.defines(s.Lhs[0], v) {
					return s, s.Rhs[0]
				}
			case *ast.DeclStmt:
				gd, _ := s.Decl.(*ast.GenDecl)
				if gd == nil || len(gd.Specs) != 1 {
					continue
				}
				vs, _ := gd.Specs[0].(*ast.ValueSpec)
				if vs != nil && len(vs.Names) == 1 && len(vs.Values) == 1 && si.defines(vs.Names[0], v) {
					return s, vs.Values[0]
				}
			}
		}
	}
	return nil, nil
}

func (si *site) defines(e ast.Expr, v *types.Var) bool {
	id, ok := e.(*ast.Ident)
	return ok && si.pass.TypesInfo.Defs[id] == v
}

// enclosingLists returns the statement lists enclosing the write, inner
// first, up to its function's body.
func (si *site) enclosingLists() [][]ast.Stmt {
	var lists [][]ast.Stmt
	for i, n := range si.path {
		switch n := n.(type) {
		case *ast.BlockStmt:
			lists = append(lists, n.List)
		case *ast.CaseClause:
			lists = append(lists, n.Body)
		case *ast.CommClause:
			lists = append(lists, n.Body)
		case *ast.FuncLit, *ast.FuncDecl:
			if !deferredAt(si.path, i) {
				return lists
			}
		}
	}
	return lists
}

// configRoot returns the constructor call a configuration's builder chain
// starts from: ac itself, or the value of ac's definition in a block
// enclosing the write.
func (si *site) configRoot(ac ast.Expr) *ast.CallExpr {
	if id, ok := ac.(*ast.Ident); ok {
		v, _ := si.pass.TypesInfo.Uses[id].(*types.Var)
		_, val := si.definition(v)
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
			if fn := kube.CalledFunc(si.pass, call); fn == nil || fn.Signature().Recv() != nil {
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
func (si *site) declaredBefore(e ast.Expr, pos token.Pos) string {
	why := ""
	ast.Inspect(e, func(n ast.Node) bool {
		id, ok := n.(*ast.Ident)
		if !ok || why != "" {
			return why == ""
		}
		if v, ok := si.pass.TypesInfo.Uses[id].(*types.Var); ok && !v.IsField() && v.Parent() != si.pass.Pkg.Scope() && v.Pos() >= pos {
			why = "the field owner " + types.ExprString(e) + " uses " + id.Name + ", declared after the read the patcher is made at"
		}
		return true
	})
	return why
}

// statusChange says why the use at the top of stack may change the
// object's status: assigned, incremented, its address taken (useProblem
// allows that for a status write, which apply mode does not), or a
// reference into it handed on, by chainChange's rules (a function of the
// package followed into its parameter, meta.FindStatusCondition's result
// and locals followed); "" if it does not. Apply mode's Flush refuses a
// status changed in memory beside ApplyStatus.
func (si *site) statusChange(stack []ast.Node) string {
	top, changed := changedAt(stack, len(stack)-1)
	if e, ok := stack[top].(ast.Expr); ok && changed {
		return fmt.Sprintf("%s is changed at line %d: apply mode applies only the configuration", types.ExprString(e), si.pass.Fset.Position(e.Pos()).Line)
	}
	if _, how := si.refs().chainChange(stack, len(stack)-1); how != "" {
		return fmt.Sprintf("the status may be changed at %s: %s, and apply mode applies only the configuration", si.where(stack[len(stack)-1].Pos()), how)
	}
	return ""
}

// enclosingStmt returns the statement of a block that holds the write.
func (si *site) enclosingStmt() ast.Stmt {
	for i, n := range si.path {
		if i+1 >= len(si.path) {
			break
		}
		s, ok := n.(ast.Stmt)
		if !ok {
			continue
		}
		switch si.path[i+1].(type) {
		case *ast.BlockStmt, *ast.CaseClause, *ast.CommClause:
			return s
		case *ast.FuncLit, *ast.FuncDecl:
			if !deferredAt(si.path, i+1) {
				return nil
			}
		}
	}
	return nil
}

// eachUse calls check with the path from root to each use of v between
// from and to, until one returns why it is a problem, and returns that.
// The path is the use's cursor's (cursor.go), root first.
func (si *site) eachUse(root ast.Node, v *types.Var, from, to token.Pos, check func(stack []ast.Node, id *ast.Ident) string) string {
	if _, ok := si.cursor(root); !ok {
		return "the uses of " + v.Name() + " are not in the package's syntax"
	}
	for c := range si.usesOf(root, v, from, to) {
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
func (si *site) enclosingFunc() ast.Node {
	for i, n := range si.path {
		switch n.(type) {
		case *ast.FuncLit, *ast.FuncDecl:
			if !deferredAt(si.path, i) {
				return n
			}
		}
	}
	return si.file
}

// isResult reports whether v is a named result of the function.
func (si *site) isResult(v types.Object) bool {
	var ft *ast.FuncType
	switch f := si.enclosingFunc().(type) {
	case *ast.FuncDecl:
		ft = f.Type
	case *ast.FuncLit:
		ft = f.Type
	}
	return ft == nil || ft.Results != nil && ft.Results.Pos() <= v.Pos() && v.Pos() < ft.Results.End()
}

// blockScope returns the scope of the block whose statement list holds s
// (a function's body: the function's scope).
func (si *site) blockScope(s ast.Stmt) *types.Scope {
	b := si.block(s)
	if b == nil {
		return nil
	}
	if sc := si.pass.TypesInfo.Scopes[b]; sc != nil {
		return sc
	}
	switch f := si.enclosingFunc().(type) {
	case *ast.FuncDecl:
		if f.Body == b {
			return si.pass.TypesInfo.Scopes[f.Type]
		}
	case *ast.FuncLit:
		if f.Body == b {
			return si.pass.TypesInfo.Scopes[f.Type]
		}
	}
	return nil
}

// blockEnd is where the block holding s ends.
func (si *site) blockEnd(s ast.Stmt) token.Pos {
	if b := si.block(s); b != nil {
		return b.End()
	}
	return si.enclosingFunc().End()
}

// block returns the block or clause of the write's function whose
// statement list holds s.
func (si *site) block(s ast.Stmt) ast.Node {
	var found ast.Node
	si.stmtLists(func(owner ast.Node, list []ast.Stmt) bool {
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
func (si *site) stmtLists(f func(owner ast.Node, list []ast.Stmt) bool) {
	fn, more := si.enclosingFunc(), true
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
// function sets it (or there is none).
func (si *site) assignedNext(v types.Object, pos token.Pos) bool {
	fn := si.enclosingFunc()
	for c := range si.usesOf(fn, v, pos, fn.End()) {
		as, ok := c.Parent().Node().(*ast.AssignStmt)
		return ok && isLHS(as, c.Node())
	}
	return true
}

// uses counts the uses of v in the file.
func (si *site) uses(v *types.Var) int {
	n := 0
	ast.Inspect(si.file, func(node ast.Node) bool {
		if id, ok := node.(*ast.Ident); ok && si.pass.TypesInfo.Uses[id] == v {
			n++
		}
		return true
	})
	return n
}

// paramOf returns the name of the function (or "a function literal") of
// which v is a parameter, or "".
func (si *site) paramOf(v *types.Var) string {
	var ft *ast.FuncType
	name := "a function literal"
	switch f := si.enclosingFunc().(type) {
	case *ast.FuncDecl:
		ft, name = f.Type, f.Name.Name
	case *ast.FuncLit:
		ft = f.Type
	default:
		return ""
	}
	for _, field := range ft.Params.List {
		for _, n := range field.Names {
			if si.pass.TypesInfo.Defs[n] == v {
				return name
			}
		}
	}
	return ""
}

// funcName names fn as the code of package from calls it: F, T.M, pkg.F or
// pkg.T.M.
func funcName(fn *types.Func, from *types.Package) string {
	name := fn.Name()
	if recv := fn.Signature().Recv(); recv != nil {
		if n := kube.NamedOf(recv.Type()); n != nil {
			name = n.Obj().Name() + "." + name
		}
	}
	if fn.Pkg() != nil && fn.Pkg() != from {
		name = fn.Pkg().Name() + "." + name
	}
	return name
}

// where names the line of pos as a finding about the write says it: "line
// N" in the write's file, "file.go:N" in another (a function the object
// was handed to) or without a write (a ParamsFact's Why).
func (si *site) where(pos token.Pos) string {
	at := si.pass.Fset.Position(pos)
	if si.call != nil && si.file != nil && si.pass.Fset.File(si.file.Pos()) != nil && si.pass.Fset.File(si.file.Pos()).Name() == at.Filename {
		return fmt.Sprintf("line %d", at.Line)
	}
	return fmt.Sprintf("%s:%d", filepath.Base(at.Filename), at.Line)
}
