package migrate

import (
	"fmt"
	"go/ast"
	"go/types"
	"strings"

	"golang.org/x/tools/go/analysis"
)

// A status write in a method over an interface of the module that has
// client.Object's methods (issue 80: a status.Manager's
// MarkDegraded(ctx, obj Conditioned, cause), called by every reconciler
// with its own kind) is no kindHelper: a method cannot take a type
// parameter, so the move of a function over the interface onto
// *patcher.Patcher[T] (migrategeneric.go) does not apply. The generated
// package's StatusPatcher is the patcher such a method can take: each
// kind's <Kind>StatusPatcher returns one over its own patcher with
// StatusPatcher(), and For makes one from an object. -fix does not make
// that move; the write stays, its reason naming the method's line, the
// fact and the move by hand.

// ifaceMethodWhy says why w, a merge patch or an Update of a parameter of
// a method whose type is an interface of the module, stays; "" when w is
// not one (or an audit, which names no shape -fix does not move).
func ifaceMethodWhy(pass *analysis.Pass, files Files, opts Options, w *Write) string {
	call, ok := files.Calls[w.Lparen]
	if !ok || w.Generated || opts.Audit || opts.PatcherOf == nil || (w.Verb != "Patch" && w.Verb != "Update") || len(call.Args) < 2 {
		return ""
	}
	h := &kindHelper{site: &site{place: place{calls: calls{pass: pass, insp: files.Inspector}, call: call}}, client: -1, base: -1}
	cur, ok := h.cursor(call)
	if !ok {
		return ""
	}
	h.path = pathOf(cur)
	h.file = h.path[len(h.path)-1].(*ast.File)
	fd, _ := h.enclosingFunc().(*ast.FuncDecl)
	if fd == nil || fd.Recv == nil {
		return ""
	}
	for v := range paramFields(pass, fd) {
		h.params = append(h.params, v) // nil for an unnamed one, which no argument names
	}
	if h.obj = h.paramIndex(call.Args[1]); h.obj < 0 || !h.anyKind(h.params[h.obj].Type()) || !h.iface {
		return ""
	}
	obj := h.params[h.obj]
	iface := types.TypeString(obj.Type(), types.RelativeTo(pass.Pkg))
	pkg := patchersName(pass, opts)
	return fmt.Sprintf("%s is a method of %s (%s): a method cannot take a type parameter, so not the *patcher.Patcher[T] (T %s) -fix gives a function over %s; "+
		"by hand: have it take p %s.StatusPatcher in place of %s (%s := p.Object().(%s) where it needs the interface) and call p.Flush(ctx) in place of this write, "+
		"each caller passing its kind's patcher's StatusPatcher(), or %s.For(c, obj)",
		fd.Name.Name, recvName(fd), h.where(fd.Name.Pos()), iface, iface, pkg, obj.Name(), obj.Name(), iface, pkg)
}

// recvName is the name of fd's receiver type, without its pointer.
func recvName(fd *ast.FuncDecl) string {
	t := fd.Recv.List[0].Type
	if s, ok := t.(*ast.StarExpr); ok {
		t = s.X
	}
	if x, ok := t.(*ast.IndexExpr); ok {
		t = x.X
	}
	if x, ok := t.(*ast.IndexListExpr); ok {
		t = x.X
	}
	if id, ok := t.(*ast.Ident); ok {
		return id.Name
	}
	return "its receiver"
}

// patchersName is the name of the package of the generated patchers of a
// kind the package sees (its own types and its module's packages it
// imports), "patchers" (the package statuspatch-gen init makes) when it
// sees none.
func patchersName(pass *analysis.Pass, opts Options) string {
	mod := ""
	if pass.Module != nil {
		mod = pass.Module.Path
	}
	seen := map[*types.Package]bool{}
	var visit func(*types.Package) string
	visit = func(p *types.Package) string {
		if seen[p] || p != pass.Pkg && (mod == "" || p.Path() != mod && !strings.HasPrefix(p.Path(), mod+"/")) {
			return ""
		}
		seen[p] = true
		for _, name := range p.Scope().Names() {
			if tn, ok := p.Scope().Lookup(name).(*types.TypeName); ok && !tn.IsAlias() {
				if pt := opts.PatcherOf(types.NewPointer(tn.Type())); pt != nil && pt.Pkg != "" {
					return pt.Pkg[strings.LastIndex(pt.Pkg, "/")+1:]
				}
			}
		}
		for _, imp := range p.Imports() {
			if n := visit(imp); n != "" {
				return n
			}
		}
		return ""
	}
	if n := visit(pass.Pkg); n != "" {
		return n
	}
	return "patchers"
}
