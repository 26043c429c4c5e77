package lint

import (
	"go/ast"
	"go/token"
	"go/types"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ssa"
)

// applyFixes returns the suggested fix of a blind status apply whose
// configuration is made by a generated constructor (kubebuilder's --ssa
// shape, appsv1apply.Application(name, ns).WithStatus(...)): it locks the
// configuration where it is made,
//
//	appsv1apply.Application(req.Name, req.Namespace).WithResourceVersion(application.ResourceVersion).WithStatus(...)
//
// with the object of the configuration's kind that the function fetched
// with Get before building it, the status being computed from it. obj
// names that object for the finding's advice. Without exactly one such
// object in scope, or for a configuration not made by a constructor call,
// there is no fix, and noFix says why. One fix covers every blind path.
func applyFixes(pass *analysis.Pass, cl *classifier, files *fileSet, w *write, r result) (fixes []analysis.SuggestedFix, obj, noFix string) {
	if r.verdict != blind || w.generated || w.verb != "Apply" {
		return nil, "", ""
	}
	var edits []analysis.TextEdit
	done := map[token.Pos]bool{}
	objs := map[string]bool{}
	for _, ch := range cl.applyChains(w.args[1]) {
		if cl.classifyChain(w, ch, w.kind.name).verdict != blind {
			continue
		}
		root, ok := ch.root.(*ssa.Call)
		if ok {
			if _, u := fromUnstructured(root.Common()); u {
				return nil, "", "" // the object's resourceVersion is the lock (unstructuredApply)
			}
		}
		if ch.rv != nil {
			return nil, "", "the apply configuration clears its resourceVersion"
		}
		made := cl.applyConstructor(ch.root)
		if !ok || made == "" {
			if made == "" {
				made = describeApplyRoot(ch.root)
			}
			return nil, "", "the apply configuration is not built by a constructor call (" + strings.TrimSuffix(made, "(...)") + ")"
		}
		expr, ok := files.calls[root.Pos()]
		if !ok || !files.checked(expr.Pos()) {
			return nil, "", "the apply configuration is built outside the checked files"
		}
		if done[expr.Pos()] {
			continue
		}
		done[expr.Pos()] = true
		kind, _ := applyConfigKind(root.Type())
		if !hasRVBuilder(root.Type()) {
			return nil, "", kind + "ApplyConfiguration has no WithResourceVersion builder"
		}
		fetched := fetchedObjects(pass, expr, kind)
		if len(fetched) == 0 {
			return nil, "", "no " + kind + " fetched with Get before the apply configuration is built"
		}
		named := namedBy(pass, expr, fetched)
		switch len(named) {
		case 0:
			return nil, "", "the apply configuration's name is not the fetched " + kind + "'s (" + fetchedNames(fetched) + ")"
		case 1:
		default:
			return nil, "", "several " + kind + " objects fetched with Get (" + fetchedNames(named) +
				"): which one the status was computed from is not clear"
		}
		objs[named[0].name] = true
		edits = append(edits, analysis.TextEdit{Pos: expr.End(), End: expr.End(),
			NewText: []byte(".WithResourceVersion(" + named[0].name + ".ResourceVersion)")})
	}
	if len(edits) == 0 {
		return nil, "", ""
	}
	msg := "add .WithResourceVersion(<fetched object>.ResourceVersion) to the status apply configuration"
	if len(objs) == 1 {
		for o := range objs {
			obj = o
		}
		msg = "add .WithResourceVersion(" + obj + ".ResourceVersion) to the status apply configuration"
	}
	return []analysis.SuggestedFix{{Message: msg, TextEdits: edits}}, obj, ""
}

// hasRVBuilder reports whether the configuration type has a
// WithResourceVersion method returning its own type, so the fix's call
// chains on.
func hasRVBuilder(typ types.Type) bool {
	m, _, _ := types.LookupFieldOrMethod(typ, true, nil, "WithResourceVersion")
	fn, ok := m.(*types.Func)
	if !ok {
		return false
	}
	sig := fn.Type().(*types.Signature)
	return sig.Params().Len() == 1 && sig.Results().Len() == 1 && types.Identical(sig.Results().At(0).Type(), typ)
}

// fetched is an object passed to a controller-runtime Get, and the object
// its key names (req in c.Get(ctx, req.NamespacedName, &application), x
// in client.ObjectKeyFromObject(x)).
type fetched struct {
	name string
	obj  types.Object // the variable
	key  types.Object
}

func fetchedNames(fs []fetched) string {
	var names []string
	for _, f := range fs {
		names = append(names, f.name)
	}
	return strings.Join(names, ", ")
}

// fetchedObjects returns the variables of type kind (or *kind) that the
// function declaring expr passes to a controller-runtime Get before expr,
// and that expr's position sees (declared in an enclosing scope, not
// shadowed): c.Get(ctx, key, &application) or c.Get(ctx, key, application).
func fetchedObjects(pass *analysis.Pass, expr ast.Expr, kind string) []fetched {
	var decl *ast.FuncDecl
	for _, f := range pass.Files {
		if f.FileStart <= expr.Pos() && expr.Pos() <= f.FileEnd {
			for _, d := range f.Decls {
				if fd, ok := d.(*ast.FuncDecl); ok && fd.Body != nil && fd.Pos() <= expr.Pos() && expr.End() <= fd.End() {
					decl = fd
				}
			}
		}
	}
	scope := pass.Pkg.Scope().Innermost(expr.Pos())
	if decl == nil || scope == nil {
		return nil
	}
	var out []fetched
	seen := map[types.Object]bool{}
	ast.Inspect(decl.Body, func(n ast.Node) bool {
		call, ok := n.(*ast.CallExpr)
		if !ok || call.End() > expr.Pos() || len(call.Args) < 3 {
			return true
		}
		sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
		if !ok || sel.Sel.Name != "Get" {
			return true
		}
		m, ok := pass.TypesInfo.Uses[sel.Sel].(*types.Func)
		if !ok || m.Pkg() == nil || m.Pkg().Path() != clientPkgPath {
			return true
		}
		id, ok := rootIdent(call.Args[2])
		if !ok {
			return true
		}
		v, ok := pass.TypesInfo.Uses[id].(*types.Var)
		if !ok || seen[v] {
			return true
		}
		if n := namedOf(v.Type()); n == nil || n.Obj().Name() != kind {
			return true
		}
		if _, o := scope.LookupParent(id.Name, expr.Pos()); o != v {
			return true
		}
		seen[v] = true
		f := fetched{name: id.Name, obj: v}
		if k, ok := rootIdent(call.Args[1]); ok {
			f.key = pass.TypesInfo.ObjectOf(k)
		}
		out = append(out, f)
		return true
	})
	return out
}

// namedBy returns the fetched objects that the configuration's
// constructor names: its name argument is the object's name
// (application.Name, application.GetName()) or its key's (req.Name).
func namedBy(pass *analysis.Pass, ctor *ast.CallExpr, fs []fetched) []fetched {
	if len(ctor.Args) == 0 {
		return nil
	}
	id, ok := rootIdent(ctor.Args[0])
	if !ok {
		return nil
	}
	o := pass.TypesInfo.ObjectOf(id)
	var out []fetched
	for _, f := range fs {
		if o != nil && (o == f.obj || o == f.key) {
			out = append(out, f)
		}
	}
	return out
}

// rootIdent returns the variable an expression starts from: x in x,
// &x, x.Name, x.NamespacedName, x.GetName() and
// client.ObjectKeyFromObject(x).
func rootIdent(e ast.Expr) (*ast.Ident, bool) {
	for range maxDepth {
		switch x := ast.Unparen(e).(type) {
		case *ast.Ident:
			return x, true
		case *ast.UnaryExpr:
			if x.Op != token.AND {
				return nil, false
			}
			e = x.X
		case *ast.SelectorExpr:
			e = x.X
		case *ast.CallExpr:
			switch fun := ast.Unparen(x.Fun).(type) {
			case *ast.SelectorExpr:
				if len(x.Args) == 0 { // x.GetName()
					e = fun.X
				} else if fun.Sel.Name == "ObjectKeyFromObject" && len(x.Args) == 1 {
					e = x.Args[0]
				} else {
					return nil, false
				}
			default:
				return nil, false
			}
		default:
			return nil, false
		}
	}
	return nil, false
}
