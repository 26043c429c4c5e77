package migrate

import (
	"cmp"
	"fmt"
	"go/ast"
	"go/token"
	"go/types"

	"github.com/statuspatch/statuspatch/cmd/statuspatch-lint/internal/kube"
	"golang.org/x/tools/go/ast/inspector"
)

// The reasons -fix gives for a status write of a kind with a generated
// patcher whose shape it does not move: each names what the recognised
// shapes (docs/lint.md, "Moving writes onto the generated patchers") need
// and the write lacks, so a reader knows what to move by hand. They are
// the default mode's (a handwritten write to move): an audit's verdicts
// stay as they were.

// shapeWhy is why, or "" in an audit.
func (m *migration) shapeWhy(why string) string {
	if m.audit {
		return ""
	}
	return why
}

// findObj sets m.obj, the written object, or leaves it nil and returns
// why the write's object is not one -fix can make a patcher from.
func (m reads) findObj(kind string) string {
	arg := ast.Unparen(m.call.Args[1])
	id, ok := arg.(*ast.Ident)
	if !ok {
		if u, ok := arg.(*ast.UnaryExpr); ok && u.Op == token.AND {
			if ix, ok := ast.Unparen(u.X).(*ast.IndexExpr); ok {
				if _, slice := m.pass.TypesInfo.TypeOf(ix.X).Underlying().(*types.Slice); slice {
					// &list.Items[i] written in place: a List's item, or
					// an element of a slice the code filled.
					if why := m.conflictsHandled(types.ExprString(arg)); why != "" {
						return m.shapeWhy(why) // migrateitemwhy.go
					}
					what := "an item of a list, a cached copy"
					if !listItems(m.pass, ix.X) {
						what = "an element of the slice " + types.ExprString(ix.X) + ", a copy the model cannot show fresh"
					}
					return m.shapeWhy(fmt.Sprintf("the object %s is %s: make its patcher with Fetch%s(ctx, %s, client.ObjectKeyFromObject(%s)), which reads it fresh, and Flush it here",
						types.ExprString(arg), what, m.patcherType, itemClient(m.migration), types.ExprString(arg)))
				}
			}
		}
		if v := m.localValue(arg, kind); v != nil {
			// &x of a local value (kubebuilder's tutorial: var cronJob
			// batchv1.CronJob, r.Get(ctx, key, &cronJob)): the object is
			// x, passed as &x, and the patcher is made over &x.
			m.obj = v
			return ""
		}
		if u, ok := arg.(*ast.UnaryExpr); ok && u.Op == token.AND {
			if id, ok := ast.Unparen(u.X).(*ast.Ident); ok {
				if v, _ := m.pass.TypesInfo.Uses[id].(*types.Var); v != nil && v.Parent() == m.pass.Pkg.Scope() {
					return m.shapeWhy("the object " + types.ExprString(arg) + " is the address of the package variable " + v.Name() + ": -fix moves the writes of a local value only")
				}
			}
		}
		if why := fieldWhy(m, arg, ""); why != "" {
			return m.shapeWhy(why) // migratefield.go
		}
		return m.shapeWhy("the object " + types.ExprString(arg) + " is not a variable")
	}
	obj, ok := m.pass.TypesInfo.Uses[id].(*types.Var)
	if !ok || kube.NamedOf(obj.Type()) == nil || kube.NamedOf(obj.Type()).Obj().Name() != kind {
		if why := ifaceParamWhy(m, obj, kind); ok && why != "" {
			return m.shapeWhy(why) // migrateifaceparam.go
		}
		return m.shapeWhy(id.Name + " is not a *" + kind + " variable")
	}
	if _, isPtr := types.Unalias(obj.Type()).(*types.Pointer); !isPtr {
		return m.shapeWhy(id.Name + " is not a pointer")
	}
	m.obj = obj
	return ""
}

// argText says what a call passes as the object when it is not a
// variable: &x of a local value (jobset's r.updateJobSetStatus(ctx, &js,
// ...) after r.Get(ctx, key, &js)) says so, with the pointer -fix needs;
// &x of a package variable says that, as findObj does.
func (m *migration) argText(arg ast.Expr) string {
	u, ok := ast.Unparen(arg).(*ast.UnaryExpr)
	if !ok || u.Op != token.AND {
		return "does not pass a variable"
	}
	id, ok := ast.Unparen(u.X).(*ast.Ident)
	v, _ := m.pass.TypesInfo.Uses[id].(*types.Var)
	if !ok || v == nil {
		return "passes " + types.ExprString(arg) + ", not a variable"
	}
	if v.Parent() == m.pass.Pkg.Scope() {
		return "passes &" + v.Name() + ", the address of the package variable " + v.Name() + ": -fix moves the writes of a local value only"
	}
	return "passes " + m.addrText(v)
}

// localValue is the variable x of arg &x, a value (not a pointer) of
// kind declared in a function, or nil.
func (m reads) localValue(arg ast.Expr, kind string) *types.Var {
	u, ok := arg.(*ast.UnaryExpr)
	if !ok || u.Op != token.AND {
		return nil
	}
	id, ok := ast.Unparen(u.X).(*ast.Ident)
	if !ok {
		return nil
	}
	v, _ := m.pass.TypesInfo.Uses[id].(*types.Var)
	if v == nil || v.Parent() == nil || v.Parent() == m.pass.Pkg.Scope() {
		return nil
	}
	if _, isPtr := types.Unalias(v.Type()).(*types.Pointer); isPtr {
		return nil
	}
	if n := kube.NamedOf(v.Type()); n == nil || n.Obj().Name() != kind {
		return nil
	}
	return v
}

// addrText says that &v is the address of a local value, with the
// pointer variable -fix needs in its place.
func (m *migration) addrText(v *types.Var) string {
	typ := types.TypeString(v.Type(), func(p *types.Package) string { return p.Name() })
	if cur, ok := m.reads().defCursor(v); ok {
		if vs, ok := cur.Parent().Node().(*ast.ValueSpec); ok && vs.Type != nil {
			typ = types.ExprString(vs.Type) // as the file names it
		}
	}
	return fmt.Sprintf("&%s, the address of a local value declared at %s: the patcher is made of a pointer variable; declare %s := &%s{}, read into it and pass it (Fetch%s there makes its patcher)",
		v.Name(), m.where(v.Pos()), v.Name(), typ, m.patcherType)
}

// noGet says why an Update has no anchor: its object is not read with
// Get in the function before the write.
func (m reads) noGet() string {
	if why := m.cachedItem(); why != "" {
		return why
	}
	if fn := m.outerParamOf(m.obj); fn != "" {
		return m.shapeWhy(m.obj.Name() + " is a parameter of " + fn + ": the patcher is made where its callers read it; move the write there")
	}
	if why := copiedReadWhy(m); why != "" {
		return m.shapeWhy(why) // a copy of a read not what it read (migrateread.go)
	}
	if why := importedReadWhy(m); why != "" {
		return why // a helper of another package (originhelperfact.go)
	}
	if call, fn, get, why := helperReadBefore(m); call != nil && why != "" {
		return helperReadWhy(m, fn, m.where(get.Pos()), call, why)
	}
	if call, fn, get := helperGet(&m.place, m.obj, m.call.Pos()); call != nil {
		return m.shapeWhy(fmt.Sprintf("%s is read with Get in %s (%s), called at %s, not in %s: -fix makes the patcher at a Get of the write's function; make New%s after that call and call its Flush(ctx) here",
			m.obj.Name(), funcName(fn, m.pass.Pkg), m.where(get.Pos()), m.where(call.Pos()), m.funcText(), m.patcherType))
	}
	if _, val := m.definition(m.obj); val != nil {
		if why := fieldWhy(m, val, m.obj.Name()); why != "" {
			return m.shapeWhy(why) // migratefield.go
		}
	}
	if why := deferredBeforeRead(m); why != "" {
		return m.shapeWhy(why)
	}
	if why := cmp.Or(nestedGetWhy(m), blockGetWhy(m), assertedGetWhy(m)); why != "" {
		return why
	}
	if fd := m.funcDecl(kube.CalledFunc(m.pass, m.call)); fd != nil && !isStatusWrite(m.call) {
		// A helper's caller (helperCallers): the write is the helper's.
		return m.shapeWhy(fmt.Sprintf("%s is not read with Get in %s before its call of %s: where its status changes start is not seen; make New%s there and pass it",
			m.obj.Name(), m.funcText(), fd.Name.Name, m.patcherType))
	}
	return m.shapeWhy(m.obj.Name() + " is not read with Get in " + m.funcText() + " before the write: where its status changes start is not seen; make New" + m.patcherType + " there and call its Flush(ctx) here")
}

// helperReadWhy is the reason a write stays when the helper fn, called
// at call, reads the object with its Get at getAt but may not hand it
// back as it read it (why): of the package (helperReadBefore) or of
// another (importedReadWhy).
func helperReadWhy(m reads, fn *types.Func, getAt string, call *ast.CallExpr, why string) string {
	name := funcName(fn, m.pass.Pkg)
	return m.shapeWhy(fmt.Sprintf("%s is read with Get in %s (%s), called at %s, but %s %s: the object the call hands back may not be the Get's, and -fix makes no patcher there; make New%s where its status changes start and call its Flush(ctx) here",
		m.obj.Name(), name, getAt, m.where(call.Pos()), name, why, m.patcherType))
}

// helperGet finds the last call before pos in pl's function that hands
// obj (or &obj of a value) to a function of the package whose body reads
// that parameter with the client's Get: the read is the helper's, which
// findGet does not take as the write's. It returns the call, the function
// and its Get, or nils.
func helperGet(pl *place, obj *types.Var, pos token.Pos) (*ast.CallExpr, *types.Func, *ast.CallExpr) {
	fnNode := pl.enclosingFunc()
	root, ok := pl.cursor(fnNode)
	if !ok {
		return nil, nil, nil
	}
	var last, lastGet *ast.CallExpr
	var lastFn *types.Func
	for cur := range root.Preorder((*ast.CallExpr)(nil)) {
		call := cur.Node().(*ast.CallExpr)
		if call.End() > pos {
			continue
		}
		fn := kube.CalledFunc(pl.pass, call)
		decl := pl.funcDecl(fn)
		if decl == nil || decl.Body == nil {
			continue
		}
		params := paramVars(pl.pass, decl)
		for i, arg := range call.Args {
			if i >= len(params) || params[i] == nil || !passesObj(pl.pass.TypesInfo, obj, arg) {
				continue
			}
			if get := getInto(pl, decl.Body, params[i]); get != nil {
				last, lastFn, lastGet = call, fn, get
			}
		}
	}
	return last, lastFn, lastGet
}

// getInto is the first c.Get(ctx, key, p) in body that reads into the
// parameter p, or nil.
func getInto(pl *place, body *ast.BlockStmt, p *types.Var) *ast.CallExpr {
	root, ok := pl.cursor(body)
	if !ok {
		return nil
	}
	for cur := range root.Preorder((*ast.CallExpr)(nil)) {
		call := cur.Node().(*ast.CallExpr)
		if len(call.Args) == 3 && pl.clientWrite(call) == "Get" && identOf(pl.pass, call.Args[2]) == p {
			return call
		}
	}
	return nil
}

// noBase says why a Patch whose base (or patch) variable v has no
// definition of the recognised shape in the function has no anchor.
func (m reads) noBase(v *types.Var, what, want string) string {
	if v == nil {
		return m.shapeWhy("the " + what + " is not a variable of " + m.funcText())
	}
	if fn := m.outerParamOf(v); fn != "" {
		return m.shapeWhy("the " + what + " " + v.Name() + " is a parameter of " + fn + ": the patcher is made where its callers take it; move the write there")
	}
	return m.shapeWhy("the " + what + " " + v.Name() + " is not " + want + " taken in " + m.funcText())
}

// deferredBeforeRead is why a deferred write (defer r.Status().Update(ctx,
// w), or a write in a deferred literal) stays when its defer statement
// runs before a Get of the object that a path of the function's graph
// (life.reaches) leads to: the write runs after that read, but -fix makes
// the patcher at the read, and the defer statement takes the patcher
// before (a call's receiver and arguments are taken where it is
// deferred; a literal names a variable declared after it). "" when the
// write is not deferred or no such Get follows in the function itself
// (a Get in a literal it calls is not where -fix makes the patcher:
// inOtherFunc). At cb49be1 such a write was "not read with Get in this
// function before the write".
func deferredBeforeRead(m reads) string {
	var d *ast.DeferStmt // the write's, or its literal's
walk:
	for i, n := range m.path {
		switch n := n.(type) {
		case *ast.DeferStmt:
			if i > 0 && n.Call == m.path[i-1] && (n.Call == m.call || i > 1 && deferredAt(m.path, i-2)) {
				d = n
				break walk
			}
		case *ast.FuncLit:
			if !deferredAt(m.path, i) {
				break walk // the write's function is not deferred
			}
		case *ast.FuncDecl:
			break walk
		}
	}
	l := newLife(&m.site, m.obj)
	root, ok := m.cursor(m.enclosingFunc())
	if d == nil || l == nil || !ok {
		return ""
	}
	for cur := range root.Preorder((*ast.CallExpr)(nil)) {
		get := cur.Node().(*ast.CallExpr)
		if get.Pos() < d.End() || len(get.Args) != 3 || !l.isGet(get) || !l.reaches(d.Pos(), get.Pos()) || inOtherFunc(cur, root) {
			continue
		}
		what := fmt.Sprintf("the defer statement at %s takes this write's receiver and arguments there", m.where(d.Pos()))
		advice := "defer its Flush(ctx) after that read"
		if fd := m.funcDecl(kube.CalledFunc(m.pass, m.call)); fd != nil && !isStatusWrite(m.call) && d.Call == m.call {
			// A helper's caller (helperCallers): the write is the helper's.
			what = fmt.Sprintf("the defer statement at %s takes the arguments of this call of %s there", m.where(d.Pos()), fd.Name.Name)
			advice = fmt.Sprintf("make New%s after that read and defer the call of %s with it", m.patcherType, fd.Name.Name)
		}
		if _, lit := ast.Unparen(d.Call.Fun).(*ast.FuncLit); lit {
			what = fmt.Sprintf("the function literal deferred at %s, which holds this write, is declared there", m.where(d.Pos()))
			advice = "declare the patcher before the defer statement, make it there, and Flush it in the literal when it is made"
		}
		return fmt.Sprintf("%s, before %s is read with Get at %s, where -fix makes the patcher: it would name the patcher before it is made; by hand: %s",
			what, m.obj.Name(), m.where(get.Pos()), advice)
	}
	return ""
}

// inOtherFunc reports whether cur is in a function literal under root
// that is not deferred: its code runs when that literal is called, not
// where root's statements run, and -fix makes no patcher of root there.
func inOtherFunc(cur, root inspector.Cursor) bool {
	for p := cur.Parent(); p != root && p.Node() != nil; p = p.Parent() {
		lit, ok := p.Node().(*ast.FuncLit)
		if !ok {
			continue
		}
		call, ok := p.Parent().Node().(*ast.CallExpr)
		if d, deferred := p.Parent().Parent().Node().(*ast.DeferStmt); !ok || !deferred || call.Fun != lit || d.Call != call {
			return true
		}
	}
	return false
}

// nestedGetWhy names a Get of the object before the write, in its
// function, that is an argument of another call (gomega's
// g.Expect(c.Get(ctx, key, &obj)).To(Succeed()) in kueue's test/util):
// findGet takes a Get that is a statement of its own, alone, assigned or
// an if's init, whose error the code checks where -fix can see it; this
// one's error goes to the call around it. "" when there is none, so the
// reason "not read with Get" is said only where it is true.
func nestedGetWhy(m reads) string {
	fn := m.enclosingFunc()
	if fn == nil {
		return ""
	}
	for use := range m.usesOf(fn, m.obj, fn.Pos(), m.call.Pos()) {
		arg := use
		if u, ok := arg.Parent().Node().(*ast.UnaryExpr); ok && u.Op == token.AND {
			arg = arg.Parent()
		}
		get, ok := arg.Parent().Node().(*ast.CallExpr)
		if !ok || len(get.Args) != 3 || get.Args[2] != arg.Node() || m.clientWrite(get) != "Get" {
			continue
		}
		outer, ok := arg.Parent().Parent().Node().(*ast.CallExpr)
		if !ok {
			continue
		}
		return m.shapeWhy(fmt.Sprintf("%s is read with Get at %s as an argument of %s, not in a statement of its own: -fix makes the patcher after a Get whose error it sees checked (err := c.Get(...), if err := c.Get(...); err != nil, or an assertion that ends the function when it fails: Expect(c.Get(...)).To(Succeed()), require.NoError(t, c.Get(...))); read it so, or make New%s after that statement and call its Flush(ctx) here",
			m.obj.Name(), m.where(get.Pos()), types.ExprString(outer.Fun), m.patcherType))
	}
	return ""
}
