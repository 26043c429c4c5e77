package scaffold

import (
	"fmt"
	"go/ast"
	"go/token"
	"slices"
	"strconv"
	"strings"
)

// ownApplyConfiguration is k, the type name of package p's apply
// configuration whose constructor says apiVersion (acs): a kind of the
// project's CRDs where its group is one of the module's (+groupName), as
// controller-gen's applyconfiguration generator writes them for
// +kubebuilder:ac:generate; else why not.
func (idx *modIndex) ownApplyConfiguration(k objKind, name, apiVersion string) objKind {
	group, _, ok := strings.Cut(apiVersion, "/")
	if ok && slices.Contains(idx.groups, group) {
		k.own, k.ac = true, true
		return k
	}
	return objKind{may: fmt.Sprintf("its type, %s, is the apply configuration of %s, no group of the project's (%s)", name, apiVersion, idx.ownGroups())}
}

// ownGroups says the module's API groups.
func (idx *modIndex) ownGroups() string {
	if len(idx.groups) == 0 {
		return "the module declares none: no +groupName"
	}
	return strings.Join(idx.groups, ", ")
}

// constructorAPIVersion is the apiVersion a generated apply
// configuration's constructor sets (func Widget(name, namespace string)
// *WidgetApplyConfiguration { ...; b.WithAPIVersion("g/v"); return b }),
// and its result's type name; "" where fd is none.
func constructorAPIVersion(fd *ast.FuncDecl) (typ, apiVersion string) {
	if fd.Recv != nil || fd.Body == nil || fd.Type.Results == nil || len(fd.Type.Results.List) != 1 {
		return "", ""
	}
	st, ok := fd.Type.Results.List[0].Type.(*ast.StarExpr)
	if !ok {
		return "", ""
	}
	if id, ok := st.X.(*ast.Ident); !ok || !strings.HasSuffix(id.Name, "ApplyConfiguration") {
		return "", ""
	}
	typ = st.X.(*ast.Ident).Name
	for _, stmt := range fd.Body.List {
		es, ok := stmt.(*ast.ExprStmt)
		if !ok {
			continue
		}
		call, ok := es.X.(*ast.CallExpr)
		if !ok || len(call.Args) != 1 {
			continue
		}
		sel, ok := call.Fun.(*ast.SelectorExpr)
		lit, isLit := call.Args[0].(*ast.BasicLit)
		if ok && isLit && sel.Sel.Name == "WithAPIVersion" && lit.Kind == token.STRING {
			if v, err := strconv.Unquote(lit.Value); err == nil {
				return typ, v
			}
		}
	}
	return "", ""
}

// fromUnstructured is u where e is client.ApplyConfigurationFromUnstructured(u);
// else e.
func fromUnstructured(e ast.Expr, imports map[string]string) ast.Expr {
	call, ok := ast.Unparen(e).(*ast.CallExpr)
	if !ok || len(call.Args) != 1 {
		return e
	}
	if sel, ok := call.Fun.(*ast.SelectorExpr); ok && sel.Sel.Name == "ApplyConfigurationFromUnstructured" {
		if id, ok := sel.X.(*ast.Ident); ok && imports[id.Name] == clientPkg {
			return call.Args[0]
		}
	}
	return e
}

// gvkSetter notes call's group where it is x.SetGroupVersionKind or
// x.SetAPIVersion: the group its argument gives (apiGroup), or "?".
func (s *scope) gvkSetter(c fileCtx, call *ast.CallExpr) {
	sel, ok := call.Fun.(*ast.SelectorExpr)
	if !ok || len(call.Args) != 1 || sel.Sel.Name != "SetGroupVersionKind" && sel.Sel.Name != "SetAPIVersion" {
		return
	}
	id, ok := sel.X.(*ast.Ident)
	if !ok {
		return
	}
	group, ok := c.apiGroup(call.Args[0], sel.Sel.Name == "SetAPIVersion", s, 0)
	if !ok {
		group = "?"
	}
	s.gvks[id.Name] = append(s.gvks[id.Name], group)
}

// apiGroup is the API group e gives, where init resolves it: an
// apiVersion ("group/version", or "v1": the core group) where apiVersion
// is set, else a group; a schema.GroupVersion or GroupVersionKind literal
// (its keyed Group); a constant or package-level variable of the module
// whose value is one (kubebuilder's GroupVersion, SchemeGroupVersion);
// x.String(), x.WithKind(k), x.GroupVersion() and x.Group of one. Not a
// name the declaration binds (s), nor a positional literal.
func (c fileCtx) apiGroup(e ast.Expr, apiVersion bool, s *scope, depth int) (string, bool) {
	if depth > 8 {
		return "", false
	}
	switch e := ast.Unparen(e).(type) {
	case *ast.BasicLit:
		v, err := strconv.Unquote(e.Value)
		if e.Kind != token.STRING || err != nil {
			return "", false
		}
		if !apiVersion {
			return v, true
		}
		group, _, ok := strings.Cut(v, "/")
		if !ok {
			return "", true // "v1": the core group
		}
		return group, true
	case *ast.Ident:
		if s != nil && s.bound[e.Name] > 0 {
			return "", false
		}
		return c.named(c.pkg, e.Name, apiVersion, depth)
	case *ast.SelectorExpr:
		if id, ok := e.X.(*ast.Ident); ok && c.imports[id.Name] != "" && (s == nil || s.bound[id.Name] == 0) {
			return c.named(c.imports[id.Name], e.Sel.Name, apiVersion, depth)
		}
		if e.Sel.Name == "Group" {
			return c.apiGroup(e.X, false, s, depth+1)
		}
	case *ast.CallExpr:
		sel, ok := e.Fun.(*ast.SelectorExpr)
		if ok && (len(e.Args) == 0 && (sel.Sel.Name == "String" || sel.Sel.Name == "GroupVersion") || len(e.Args) == 1 && sel.Sel.Name == "WithKind") {
			return c.apiGroup(sel.X, false, s, depth+1)
		}
	case *ast.CompositeLit:
		for _, el := range e.Elts {
			kv, ok := el.(*ast.KeyValueExpr)
			if !ok {
				return "", false // positional: not read
			}
			if key, _ := kv.Key.(*ast.Ident); key != nil && key.Name == "Group" {
				return c.apiGroup(kv.Value, false, s, depth+1)
			}
		}
		return "", true
	}
	return "", false
}

// named is the group of package pkg's constant or variable name's value
// (apiGroup).
func (c fileCtx) named(pkg, name string, apiVersion bool, depth int) (string, bool) {
	p := c.idx.pkgs[pkg]
	if p == nil {
		return "", false
	}
	v, ok := p.consts[name]
	if !ok {
		v = p.vars[name]
	}
	if v.file == nil || v.val == nil {
		return "", false
	}
	return fileCtx{c.idx, pkg, v.file.imports}.apiGroup(v.val, apiVersion, nil, depth+1)
}

// unstructuredKind is k, an unstructured object's, as obj's GVK setters
// in the scope say (obj may be client.ApplyConfigurationFromUnstructured
// of it, or a name bound to that): a kind of the project's own groups
// where each setter gives one (apiGroup); else why not.
func (s *scope) unstructuredKind(obj ast.Expr, k objKind, c fileCtx) objKind {
	obj = ast.Unparen(fromUnstructured(obj, c.imports))
	if u, ok := obj.(*ast.UnaryExpr); ok && u.Op == token.AND {
		obj = u.X
	}
	var set []string
	if id, ok := obj.(*ast.Ident); ok {
		name := id.Name
		if u, ok := s.alias[name]; ok {
			name = u
		}
		set = s.gvks[name]
	}
	if len(set) > 0 && !slices.ContainsFunc(set, func(g string) bool { return !slices.Contains(c.idx.groups, g) }) {
		k.own = true
		return k
	}
	why := "with no SetAPIVersion or SetGroupVersionKind of it in the function"
	switch other := slices.DeleteFunc(slices.Clone(set), func(g string) bool { return slices.Contains(c.idx.groups, g) }); {
	case slices.Contains(other, "?"):
		why = "whose group is of no literal, constant or GroupVersion of the module"
	case len(other) > 0 && other[0] == "":
		why = "of the core group"
	case len(other) > 0:
		why = "of group " + other[0]
	}
	return objKind{may: fmt.Sprintf("it is an %s.%s %s (the project's groups: %s)", k.pkg, k.name, why, c.idx.ownGroups())}
}

// findFakeVars notes in idx.fakeVars the package-level variables
// (package path + "." + name) that hold a fake client: bound to a
// fake.NewClientBuilder()...Build() at least once, by their declaration or
// by an assignment in a declaration that does not bind the name itself,
// and to nothing else.
func (idx *modIndex) findFakeVars(decls []declScope) {
	fakes, not := map[string]bool{}, map[string]bool{}
	note := func(key string, fake bool) {
		fakes[key] = fakes[key] || fake
		not[key] = not[key] || !fake
	}
	for pkg, p := range idx.pkgs {
		for name, v := range p.vars {
			if v.file != nil && v.val != nil {
				note(pkg+"."+name, isFakeClient(v.val, v.file.imports))
			}
		}
	}
	for _, d := range decls {
		ast.Inspect(d.decl, func(n ast.Node) bool {
			as, ok := n.(*ast.AssignStmt)
			if !ok || as.Tok != token.ASSIGN {
				return true
			}
			for i, l := range as.Lhs {
				id, ok := l.(*ast.Ident)
				if !ok || d.scope.bound[id.Name] > 0 {
					continue
				}
				if _, ok := idx.pkgs[d.file.pkg].vars[id.Name]; ok {
					note(d.file.pkg+"."+id.Name, len(as.Rhs) == len(as.Lhs) && isFakeClient(as.Rhs[i], d.file.imports))
				}
			}
			return true
		})
	}
	idx.fakeVars = map[string]bool{}
	for key, fake := range fakes {
		idx.fakeVars[key] = fake && !not[key]
	}
}
