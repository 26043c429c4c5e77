package migrate

import (
	"bytes"
	"fmt"
	"go/ast"
	"go/format"
	"go/token"
	"go/types"
	"path"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ast/inspector"
)

// An unexported write-only helper that the package's own test files call
// (kueue's clustersReconciler.updateStatus, which
// multikueuecluster_test.go calls with an object it built and gave its
// fake client) moves with those calls when the whole module is analyzed
// (Options.Module): the analyzer sees no test file, so its fix is a group
// member (GroupMember.Tests) the command resolves (lint.ResolveTestCalls):
// it parses the package's in-package test files and rewrites each call's
// object argument into the patcher made there, over that object, with the
// client the helper wrote through, named from the call (its receiver's
// field, or its client argument): r.updateStatus(ctx, obj, ...) becomes
// r.updateStatus(ctx, patchers.NewKindStatusPatcher(r.client, obj), ...).
// The patcher's base is the object as the test passes it, and its write
// carries that object's resourceVersion, as the Update did; it sends
// only what the helper changes from that base, where the Update sent the
// whole status. So the rewrite keeps the test's meaning only when the
// object is as the test made it or read it (seeded into its fake client,
// or its Get's answer): a test function that changes the object in
// between (sets its Status, passes it to a call that may change it:
// testChange, a function of the module judged by its body to the end of
// the chain: migratetestcallee.go) keeps the helper. A call that cannot be rewritten so keeps
// the helper, saying which and why (Edits).

// TestCalls is how the in-package test files' calls of a moved helper
// pass the patcher.
type TestCalls struct {
	Name        string // the helper
	Method      bool   // a method: each call is x.Name(...)
	ObjIndex    int    // the object's argument
	ClientIndex int    // the client's argument; -1: the receiver's (x + ClientRest)
	ClientRest  string // the rest of the client after its root (".client")
	PatcherPkg  string // the generated patchers' import path
	PatcherName string // their package's name
	Ctor        string // New<Kind>StatusPatcher

	judge CallJudge // the test files' calls of the module's functions (Edits)
}

// testCallsMember is the group member of a helper's move whose test
// files name it (testsMayCall), or why its test calls cannot be planned
// here: only the module's driver rewrites them, an Update-shaped helper
// (no parameter goes) whose patcher needs no option, whose name no other
// method or field of the package has (the test files have no types: a
// call x.Name(...) must be the helper's).
func (h *helperMove) testCallsMember(fn *types.Func, index int, recvRoot bool, clientRest string, p Patcher, callers []*helperCaller, opts Options) (*GroupMember, string) {
	name := h.decl.Name.Name
	switch {
	case !opts.Module || opts.Members == nil || !testRefsNamed(h.pass.Pkg.Path(), name, opts):
		return nil, ""
	case fn == nil || h.apply != nil || h.owner.expr != nil:
		return nil, "its patcher would need the options of its write, which -fix does not write into a test"
	case len(h.droppedParams()) > 0:
		return nil, "a parameter of it goes with the move, which the test's calls pass"
	}
	for _, hc := range callers {
		if hc.link != nil || hc.shared != "" || hc.writes {
			return nil, "a caller in the package passes on its own patcher, whose move the test's calls do not follow"
		}
	}
	if h.decl.Recv != nil {
		if other := sameNamed(h.pass.Pkg, fn, name); other != "" {
			return nil, other + " has a method or field " + name + " too: a test's call of " + name + " is not told apart without the test files' types"
		}
	}
	qual := path.Base(p.Pkg)
	if q := importedPkg(h.pass.Pkg, p.Pkg); q != nil {
		qual = q.Name()
	}
	objIndex := -1
	for i, v := range h.params() {
		if v == h.obj {
			objIndex = i
		}
	}
	ci := index
	if recvRoot {
		ci = -1
	}
	return &GroupMember{
		Key: "tests " + h.pass.Pkg.Path() + "." + name, Pos: h.call.Pos(), audit: h.audit,
		param: h.obj.Name() + " is a parameter of " + name,
		Tests: &TestCalls{Name: name, Method: h.decl.Recv != nil, ObjIndex: objIndex, ClientIndex: ci, ClientRest: clientRest,
			PatcherPkg: p.Pkg, PatcherName: qual, Ctor: "New" + p.Type},
	}, ""
}

// testRefsNamed reports whether -test-refs lists name among the
// unexported names the in-package test files of pkg use.
func testRefsNamed(pkg, name string, opts Options) bool {
	for _, e := range strings.Split(opts.TestRefs, ",") {
		p, names, ok := strings.Cut(e, "=")
		if ok && p == pkg {
			return strings.Contains("+"+names+"+", "+"+name+"+")
		}
	}
	return false
}

// sameNamed names a type of pkg other than fn's receiver that has a
// method or field name (fn's receiver embedded, its promoted method, is
// fn), or "".
func sameNamed(pkg *types.Package, fn *types.Func, name string) string {
	scope := pkg.Scope()
	for _, n := range scope.Names() {
		tn, ok := scope.Lookup(n).(*types.TypeName)
		if !ok || tn.IsAlias() {
			continue
		}
		if o, _, _ := types.LookupFieldOrMethod(types.NewPointer(tn.Type()), true, pkg, name); o != nil && o != fn {
			return tn.Name()
		}
	}
	return ""
}

// TestsStay is the reason the helper's write stays when a test call
// cannot pass the patcher (why, which names the call).
func (g GroupMember) TestsStay(why string) string {
	if g.audit {
		return ""
	}
	return g.param + ": " + why
}

// Edits rewrites the calls of t.Name in files, the package's in-package
// test files parsed into fset: each object argument becomes the patcher
// made over it, the file importing the patchers' package. It returns
// why a use cannot be rewritten, naming the file and line, and nil.
// judge, when the command typed the files, judges their calls that hand
// the object to a function of the module by its body (nil: by names).
func (t *TestCalls) Edits(fset *token.FileSet, files []*ast.File, judge CallJudge) ([]analysis.TextEdit, string) {
	t0 := *t
	t0.judge = judge
	t = &t0
	var edits []analysis.TextEdit
	for _, f := range files {
		where := func(n ast.Node) string {
			at := fset.Position(n.Pos())
			return fmt.Sprintf("the test file %s:%d", filepath.Base(at.Filename), at.Line)
		}
		root := inspector.New([]*ast.File{f}).Root()
		calls, why := t.callsIn(root, where)
		if why != "" {
			return nil, why
		}
		if len(calls) == 0 {
			continue
		}
		qual, imp, why := t.qualifier(f)
		if why != "" {
			return nil, where(calls[0]) + " calls " + t.Name + ", and " + why
		}
		if imp != nil {
			edits = append(edits, *imp)
		}
		for _, call := range calls {
			obj := call.Args[t.ObjIndex]
			var client ast.Expr
			if t.ClientIndex >= 0 {
				client = call.Args[t.ClientIndex]
			} else if sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr); ok {
				client = sel.X
			}
			if !isPlainSelector(client) {
				return nil, fmt.Sprintf("%s calls %s with %s: its patcher's client, %s%s, would be evaluated twice", where(call), t.Name, exprText(fset, client), exprText(fset, client), t.ClientRest)
			}
			if id, ok := ast.Unparen(obj).(*ast.Ident); ok && id.Name == "nil" {
				return nil, where(call) + " calls " + t.Name + " with a nil object: no patcher is made over nothing"
			}
			if change := t.testChange(fset, root, call, obj); change != "" {
				return nil, fmt.Sprintf("%s calls %s with %s, which it may change before the call (%s): a patcher made over it would take the change as its base and not send it, where the Update sent the whole status", where(call), t.Name, exprText(fset, obj), change)
			}
			text := fmt.Sprintf("%s.%s(%s%s, %s)", qual, t.Ctor, exprText(fset, client), t.ClientRest, exprText(fset, obj))
			edits = append(edits, analysis.TextEdit{Pos: obj.Pos(), End: obj.End(), NewText: []byte(text)})
		}
	}
	return edits, ""
}

// callsIn returns f's calls of t.Name, or why a use of the name is not
// such a call (a method value, a declaration or a field of the test's
// own, a spread argument list, too few arguments, a call within another).
func (t *TestCalls) callsIn(root inspector.Cursor, where func(ast.Node) string) ([]*ast.CallExpr, string) {
	var calls []*ast.CallExpr
	for cur := range root.Preorder((*ast.Ident)(nil)) {
		id := cur.Node().(*ast.Ident)
		if id.Name != t.Name {
			continue
		}
		call, _ := callOf(cur)
		if call == nil || !t.names(ast.Unparen(call.Fun)) {
			return nil, where(id) + " names " + t.Name + " other than in a call of it"
		}
		if call.Ellipsis.IsValid() || len(call.Args) <= max(t.ObjIndex, t.ClientIndex) {
			return nil, where(call) + " calls " + t.Name + " with its arguments spread or too few"
		}
		if slices.ContainsFunc(calls, func(c *ast.CallExpr) bool { return c.Pos() < call.End() && call.Pos() < c.End() }) {
			return nil, where(call) + " calls " + t.Name + " within a call of it"
		}
		calls = append(calls, call)
	}
	return calls, ""
}

// names reports whether fun, a call's function, is the helper as the
// test names it: x.Name for a method, Name for a function.
func (t *TestCalls) names(fun ast.Expr) bool {
	if t.Method {
		sel, ok := fun.(*ast.SelectorExpr)
		return ok && sel.Sel.Name == t.Name
	}
	id, ok := fun.(*ast.Ident)
	return ok && id.Name == t.Name
}

// qualifier is the name f imports the patchers' package by, with the
// edit importing it when it does not, or why it cannot be named.
func (t *TestCalls) qualifier(f *ast.File) (string, *analysis.TextEdit, string) {
	name := t.PatcherName
	imported := false
	for _, imp := range f.Imports {
		if p, _ := strconv.Unquote(imp.Path.Value); p == t.PatcherPkg {
			if imp.Name != nil {
				name = imp.Name.Name
			}
			imported = true
		}
	}
	if name == "_" || name == "." {
		return "", nil, "it imports " + t.PatcherPkg + " as " + name
	}
	// The name must be the import's alone: a declaration of the test's
	// would take the qualifier.
	taken := false
	ast.Inspect(f, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.ImportSpec:
			return false
		case *ast.SelectorExpr:
			if x, ok := n.X.(*ast.Ident); ok && x.Name == name {
				return false
			}
		case *ast.Ident:
			taken = taken || n.Name == name
		}
		return !taken
	})
	if taken {
		return "", nil, "it names " + name + " itself, the patchers' package name"
	}
	if imported {
		return name, nil, ""
	}
	spec := strconv.Quote(t.PatcherPkg)
	if name != path.Base(t.PatcherPkg) {
		spec = name + " " + spec
	}
	return name, importSpecEdit(f, t.PatcherPkg, spec), ""
}

// importSpecEdit adds spec (of path p) to f's first import declaration,
// beside the imports of other modules it sorts among (a group of its own
// when there are none), or as a declaration of its own.
func importSpecEdit(f *ast.File, p, spec string) *analysis.TextEdit {
	for _, d := range f.Decls {
		gd, ok := d.(*ast.GenDecl)
		if !ok || gd.Tok != token.IMPORT {
			continue
		}
		if !gd.Lparen.IsValid() {
			return &analysis.TextEdit{Pos: gd.End(), End: gd.End(), NewText: []byte("\nimport " + spec)}
		}
		var after, before *ast.ImportSpec
		for _, s := range gd.Specs {
			is := s.(*ast.ImportSpec)
			ip, _ := strconv.Unquote(is.Path.Value)
			if first, _, _ := strings.Cut(ip, "/"); !strings.Contains(first, ".") {
				continue // the standard library's group
			}
			if ip < p {
				after = is
			} else if before == nil {
				before = is
			}
		}
		switch {
		case after != nil:
			return &analysis.TextEdit{Pos: after.End(), End: after.End(), NewText: []byte("\n\t" + spec)}
		case before != nil:
			return &analysis.TextEdit{Pos: before.Pos(), End: before.Pos(), NewText: []byte(spec + "\n\t")}
		}
		return &analysis.TextEdit{Pos: gd.Rparen, End: gd.Rparen, NewText: []byte("\n\t" + spec + "\n")}
	}
	return &analysis.TextEdit{Pos: f.Name.End(), End: f.Name.End(), NewText: []byte("\n\nimport " + spec)}
}

// exprText is e as gofmt prints it.
func exprText(fset *token.FileSet, e ast.Expr) string {
	var b bytes.Buffer
	if err := format.Node(&b, fset, e); err != nil {
		return types.ExprString(e)
	}
	return b.String()
}
