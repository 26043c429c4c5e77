package scaffold

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"strings"
)

const (
	unstructuredPkg = "k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	fakeClientPkg   = clientPkg + "/fake"
)

// objKind is what init knows of the kind of an object given to the API
// server: a Go type of a built-in kind (path under k8s.io/api/), a kind
// of the project's CRDs (own), an unstructured object (its GVK says), or
// may: why init cannot tell, as a clause ("its type ... is an interface").
type objKind struct {
	pkg, name, path string // the Go type: package name, type name, import path
	own, unstr, ac  bool   // ac: an apply configuration (its With setters return it)
	may             string
}

func (k objKind) builtin() bool {
	return k.may == "" && (strings.HasPrefix(k.path, builtinPkg) || strings.HasPrefix(k.path, applyPkg))
}
func (k objKind) String() string { return fmt.Sprintf("%s.%s (%s)", k.pkg, k.name, k.path) }

// item is the kind of an element of k's Items (a List kind's).
func (k objKind) item(list string) objKind {
	name, ok := strings.CutSuffix(k.name, "List")
	if k.may != "" || !ok || k.unstr && name != "Unstructured" {
		return objKind{may: "it is an element of " + list + ", whose kind init does not resolve"}
	}
	k.name = name
	return k
}

// fileCtx resolves expressions of one file of package pkg (an import
// path) of the module: its imports by name.
type fileCtx struct {
	idx     *modIndex
	pkg     string
	imports map[string]string
}

// typ is the kind of a type expression: T or *T.
func (c fileCtx) typ(t ast.Expr) objKind {
	if st, ok := t.(*ast.StarExpr); ok {
		t = st.X
	}
	name, path := "", ""
	switch t := t.(type) {
	case *ast.Ident:
		name, path = t.Name, c.pkg
	case *ast.SelectorExpr:
		if id, ok := t.X.(*ast.Ident); ok && c.imports[id.Name] != "" {
			name, path = t.Sel.Name, c.imports[id.Name]
		}
	}
	k := objKind{pkg: path[strings.LastIndexByte(path, '/')+1:], name: name, path: path}
	if sel, ok := t.(*ast.SelectorExpr); ok && name != "" {
		k.pkg = types.ExprString(sel.X)
	}
	p := c.idx.pkgs[path]
	switch {
	case name == "":
		k.may = "its type, " + types.ExprString(t) + ", is not a named type init resolves"
	case strings.HasPrefix(path, builtinPkg):
	case strings.HasPrefix(path, applyPkg):
		k.ac = true
	case path == unstructuredPkg && (name == "Unstructured" || name == "UnstructuredList"):
		k.unstr = true
	case path == clientPkg && (name == "Object" || name == "ObjectList"):
		k.may = "its type, client." + name + ", is an interface"
	case p != nil && p.roots[name]:
		k.own = true
	case p != nil && p.acs[name] != "":
		return c.idx.ownApplyConfiguration(k, types.ExprString(t), p.acs[name])
	case p != nil:
		k.may = "its type, " + types.ExprString(t) + ", is no kind of the project's CRDs (no +kubebuilder:object:root=true)"
	default:
		k.may = "its type, " + types.ExprString(t) + ", is of " + path + ", which init does not resolve"
	}
	return k
}

// of is the kind of the value of e in scope s.
func (c fileCtx) of(e ast.Expr, s *scope) objKind {
	switch e := ast.Unparen(e).(type) {
	case *ast.UnaryExpr:
		if e.Op == token.AND {
			return c.of(e.X, s)
		}
	case *ast.CompositeLit:
		if e.Type != nil {
			return c.typ(e.Type)
		}
	case *ast.Ident:
		if k, ok := s.kinds[e.Name]; ok {
			return k
		}
		return c.packageVar(e.Name)
	case *ast.CallExpr:
		return c.result(e, s)
	case *ast.TypeAssertExpr:
		if e.Type != nil {
			return c.typ(e.Type)
		}
	case *ast.IndexExpr:
		if sel, ok := e.X.(*ast.SelectorExpr); ok && sel.Sel.Name == "Items" {
			return c.of(sel.X, s).item(types.ExprString(sel))
		}
	}
	return objKind{may: "init does not resolve " + types.ExprString(e)}
}

// packageVar is the kind of the package-level variable name: its type,
// or else its value's.
func (c fileCtx) packageVar(name string) objKind {
	v, ok := c.idx.pkgs[c.pkg].vars[name]
	switch {
	case !ok:
		return objKind{may: "init does not find where " + name + " is declared"}
	case v.file == nil:
		return objKind{may: name + " is a package-level variable init does not resolve (a second result, or declared twice)"}
	}
	vc := fileCtx{c.idx, c.pkg, v.file.imports}
	if v.typ != nil {
		return vc.typ(v.typ)
	}
	key := c.pkg + "." + name
	if c.idx.resolving[key] {
		return objKind{may: name + "'s value refers to itself"} // go test refuses the cycle
	}
	c.idx.resolving[key] = true
	defer delete(c.idx.resolving, key)
	return vc.of(v.val, &scope{kinds: map[string]objKind{}})
}

// result is the kind of call's (first) result: new(T), x.DeepCopy(), a
// built-in kind's apply configuration (corev1ac.ConfigMap(name, ns), and
// an apply configuration's With setters, which return it),
// client.ApplyConfigurationFromUnstructured(u) (u's), or a function of
// the module, by name (a method of the package too; the project's own
// generated apply configurations' constructors).
func (c fileCtx) result(call *ast.CallExpr, s *scope) objKind {
	pkg, name := c.pkg, ""
	switch fn := call.Fun.(type) {
	case *ast.Ident:
		if fn.Name == "new" && len(call.Args) == 1 {
			return c.typ(call.Args[0])
		}
		name = fn.Name
	case *ast.SelectorExpr:
		name = fn.Sel.Name
		id, ok := fn.X.(*ast.Ident)
		_, local := s.kinds[types.ExprString(fn.X)]
		switch {
		case ok && !local && strings.HasPrefix(c.imports[id.Name], applyPkg):
			return objKind{pkg: id.Name, name: name, path: c.imports[id.Name], ac: true}
		case ok && !local && c.imports[id.Name] == clientPkg && name == "ApplyConfigurationFromUnstructured" && len(call.Args) == 1:
			return c.of(call.Args[0], s) // its GVK setters say (unstructuredKind)
		case ok && !local && c.imports[id.Name] != "":
			pkg = c.imports[id.Name]
		case name == "DeepCopy":
			return c.of(fn.X, s)
		case strings.HasPrefix(name, "With"):
			if k := c.of(fn.X, s); k.ac && k.may == "" {
				return k
			}
		}
	}
	what := "it is the result of " + types.ExprString(call.Fun)
	if sel, ok := call.Fun.(*ast.SelectorExpr); ok && pkg == c.pkg {
		// r.New(): a method, or a field holding a function, of a value
		// (U2's generic reconciler: New func() T), not a declaration by
		// name.
		if _, found := c.idx.pkgs[pkg].results[name]; !found {
			return objKind{may: what + ", called on " + types.ExprString(sel.X) + ": a method or a field holding a function, whose values init does not follow"}
		}
	}
	p := c.idx.pkgs[pkg]
	if p == nil {
		return objKind{may: what + ", of " + pkg + ", which init does not resolve"}
	}
	r, ok := p.results[name]
	switch {
	case !ok:
		return objKind{may: what + ", whose declaration init does not find in " + pkg}
	case r.file == nil:
		return objKind{may: what + ", a name " + pkg + " declares more than once"}
	}
	return fileCtx{c.idx, pkg, r.file.imports}.typ(r.typ)
}

// scope is what init knows of the names of one declaration (a function,
// or a var whose value holds function literals, as Ginkgo's Describe):
// the kind of each name it binds, and which names hold a fake client.
type scope struct {
	kinds map[string]objKind
	bound map[string]int // how many times each name is bound
	fakes map[string]bool
	gvks  map[string][]string // an unstructured name → the groups its GVK setters give ("?" where init cannot tell)
	alias map[string]string   // x := client.ApplyConfigurationFromUnstructured(u): x → u
}

// newScope binds the names of decl (in file f): parameters and results
// (function literals' too), var x T, x := &T{}, x := new(T), x, err :=
// f(), range variables over X.Items. A name bound twice to different kinds
// is not exact. A name holds a fake client where every binding of it is a
// fake.NewClientBuilder()...Build() (= assignments too).
func newScope(c fileCtx, decl ast.Node) *scope {
	s := &scope{kinds: map[string]objKind{}, bound: map[string]int{}, fakes: map[string]bool{}, gvks: map[string][]string{}, alias: map[string]string{}}
	notFake := map[string]bool{}
	bind := func(id *ast.Ident, k objKind, fake bool) {
		if id.Name == "_" {
			return
		}
		if prev, ok := s.kinds[id.Name]; ok && prev != k {
			k = objKind{may: id.Name + " is declared more than once in the function, with other types"}
		}
		s.kinds[id.Name] = k
		s.bound[id.Name]++
		s.fakes[id.Name] = fake
		notFake[id.Name] = notFake[id.Name] || !fake
	}
	ast.Inspect(decl, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.Field:
			for _, id := range n.Names {
				bind(id, c.typ(n.Type), false)
			}
		case *ast.RangeStmt:
			if n.Tok != token.DEFINE {
				return true
			}
			if id, ok := n.Key.(*ast.Ident); ok {
				bind(id, objKind{may: id.Name + " is a range key"}, false)
			}
			if id, ok := n.Value.(*ast.Ident); ok {
				k := objKind{may: id.Name + " ranges over " + types.ExprString(n.X)}
				if sel, ok := n.X.(*ast.SelectorExpr); ok && sel.Sel.Name == "Items" {
					k = c.of(sel.X, s).item(types.ExprString(n.X))
				}
				bind(id, k, false)
			}
		case *ast.AssignStmt:
			for i, l := range n.Lhs {
				id, ok := l.(*ast.Ident)
				if !ok {
					continue
				}
				var v ast.Expr
				if len(n.Rhs) == len(n.Lhs) || i == 0 && len(n.Rhs) == 1 {
					v = n.Rhs[min(i, len(n.Rhs)-1)]
				}
				fake := v != nil && len(n.Rhs) == len(n.Lhs) && isFakeClient(v, c.imports)
				switch {
				case n.Tok == token.DEFINE && v != nil:
					bind(id, c.of(v, s), fake)
					if u, ok := fromUnstructured(v, c.imports).(*ast.Ident); ok && len(n.Rhs) == len(n.Lhs) {
						s.alias[id.Name] = u.Name
					}
				case n.Tok == token.DEFINE:
					bind(id, objKind{may: id.Name + " is a second result"}, false)
				case !fake:
					notFake[id.Name] = true // x = other: its static type holds, a fake may not
				}
			}
		case *ast.ValueSpec:
			for i, id := range n.Names {
				fake := i < len(n.Values) && len(n.Values) == len(n.Names) && isFakeClient(n.Values[i], c.imports)
				switch {
				case n.Type != nil:
					bind(id, c.typ(n.Type), fake)
				case i < len(n.Values) && len(n.Values) == len(n.Names):
					bind(id, c.of(n.Values[i], s), fake)
				default:
					bind(id, objKind{may: id.Name + " is a second result"}, false)
				}
			}
		case *ast.CallExpr:
			s.gvkSetter(c, n)
		}
		return true
	})
	for name, not := range notFake {
		if not {
			delete(s.fakes, name)
		}
	}
	return s
}

// isFakeClient says whether e is fake.NewClientBuilder()...Build(), of
// controller-runtime's fake package: a client that reaches no API server.
func isFakeClient(e ast.Expr, imports map[string]string) bool {
	call, ok := ast.Unparen(e).(*ast.CallExpr)
	if !ok {
		return false
	}
	if sel, ok := call.Fun.(*ast.SelectorExpr); !ok || sel.Sel.Name != "Build" {
		return false
	}
	for {
		sel, ok := call.Fun.(*ast.SelectorExpr)
		if !ok {
			return false
		}
		if id, ok := sel.X.(*ast.Ident); ok {
			return sel.Sel.Name == "NewClientBuilder" && imports[id.Name] == fakeClientPkg
		}
		if call, ok = sel.X.(*ast.CallExpr); !ok {
			return false
		}
	}
}

// receiverIsFake says whether a call's receiver, x or x.Status() (calls
// on x stripped), is a name that holds a fake client (a package-level
// variable too: fakeVars), or a fake itself.
func (s *scope) receiverIsFake(recv ast.Expr, c fileCtx) bool {
	for {
		if isFakeClient(recv, c.imports) {
			return true
		}
		switch r := ast.Unparen(recv).(type) {
		case *ast.Ident:
			if s.bound[r.Name] > 0 {
				return s.fakes[r.Name]
			}
			return c.idx.fakeVars[c.pkg+"."+r.Name]
		case *ast.CallExpr:
			sel, ok := r.Fun.(*ast.SelectorExpr)
			if !ok {
				return false
			}
			recv = sel.X
		default:
			return false
		}
	}
}
