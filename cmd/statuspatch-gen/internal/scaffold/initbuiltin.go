package scaffold

import (
	"cmp"
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"maps"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
)

// builtinPkg is where the built-in kinds' Go types live: testenv's
// in-process server serves none of them (CRDs only). Their apply
// configurations (corev1ac.ConfigMap(name, ns), what client.Apply takes)
// live under applyPkg.
const (
	builtinPkg = "k8s.io/api/"
	applyPkg   = "k8s.io/client-go/applyconfigurations/"
)

// builtinObjectArg is the table of calls that need their object's kind
// served by the API server, and which argument the object is: the
// builder's For, Owns, Watches and WatchesMetadata (the controller's
// informer lists and watches the kind), source.Kind and TypedKind (the
// source WatchesRawSource and Watch take: an informer), the cache's
// IndexField and GetInformer (an informer too), the client's reads and
// writes (Status().Update is an Update; Apply takes an apply
// configuration), and controllerutil's CreateOrUpdate and CreateOrPatch.
var builtinObjectArg = map[string]int{
	"For": 0, "Owns": 0, "Watches": 0, "WatchesMetadata": 0, "Kind": 1, "TypedKind": 1, "IndexField": 1, "GetInformer": 1,
	"Get": 2, "List": 1, "Create": 1, "Update": 1, "Patch": 1, "Apply": 1, "Delete": 1, "DeleteAllOf": 1,
	"CreateOrUpdate": 2, "CreateOrPatch": 2,
}

// clientGoClients are client-go's packages whose clients reach any kind,
// built-in ones too, with no object init could read the kind of.
var clientGoClients = []string{"k8s.io/client-go/dynamic", "k8s.io/client-go/kubernetes", "k8s.io/client-go/metadata"}

// builtinUse is one call that gives the API server an object of a
// built-in kind (may is ""), or one whose kind init cannot tell (may says
// why), or an import of a client of any kind (call is "").
type builtinUse struct {
	pos  string // file:line, slash-separated and relative to the project
	call string // the method or function called
	obj  string // the kind where exact (corev1.ConfigMap (k8s.io/api/core/v1)); else the object
	may  string
	at   token.Pos
}

func (u builtinUse) String() string {
	switch {
	case u.may == "":
		return fmt.Sprintf("%s: %s of a %s", u.pos, u.call, u.obj)
	case u.call == "":
		return fmt.Sprintf("%s: %s", u.pos, u.may)
	case u.call == "Apply":
		return fmt.Sprintf("%s: an Apply whose kind init cannot tell, of %s: %s", u.pos, u.obj, u.may)
	}
	return fmt.Sprintf("%s: %s of %s may reach the server with a built-in kind: %s", u.pos, u.call, u.obj, u.may)
}

// rewired is uses with the lines of each file in wired (init's text of
// it, project-relative path to content) as init leaves that file: the
// calls were found on the files as they were, before init wired the
// reconcilers, whose lines move.
func rewired(dir string, uses []builtinUse, wired map[string]string) []builtinUse {
	maps := map[string]func(int) int{}
	out := slices.Clone(uses)
	for i, u := range out {
		file, line, ok := strings.Cut(u.pos, ":")
		text, isWired := wired[file]
		n, err := strconv.Atoi(line)
		if !ok || !isWired || err != nil {
			continue
		}
		m, ok := maps[file]
		if !ok {
			old, err := readText(dir, file)
			if err != nil {
				continue
			}
			m = lineMap(old, text)
			maps[file] = m
		}
		out[i].pos = file + ":" + strconv.Itoa(m(n))
	}
	return out
}

// builtinList says the first three uses, and how many more.
func builtinList(uses []builtinUse) string {
	var b strings.Builder
	for i, u := range uses[:min(3, len(uses))] {
		if i > 0 {
			b.WriteString("; ")
		}
		b.WriteString(u.String())
	}
	if len(uses) > 3 {
		fmt.Fprintf(&b, "; and %d more", len(uses)-3)
	}
	return b.String()
}

// builtinWhat says what uses show of the code: that it uses built-in
// kinds, or may (init cannot tell the kinds).
func builtinWhat(uses []builtinUse) string {
	if len(uses) > 0 && uses[0].may == "" { // exact ones first
		return "uses built-in kinds"
	}
	return "may use built-in kinds (init cannot tell these objects' kinds)"
}

// builtinKindUses finds the calls (builtinObjectArg) whose object may be
// of a built-in kind in the Go files go test compiles in the module at
// dir, whose path is module (build constraints hold, so a file behind a
// build tag make test never sets is not read; nested modules, testdata,
// vendor and hidden folders are skipped). Exact or Unknown: an object of a
// k8s.io/api type is a use, one of the project's CRDs (a type marked
// +kubebuilder:object:root=true in a package of the module, an
// unstructured object whose GVK setters give one of the module's
// +groupName, as a literal, a constant or its GroupVersion (apiGroup), or
// the project's own generated apply configuration of one:
// ownApplyConfiguration) is not, and one whose kind init cannot tell is a
// use that may be (an interface, an unstructured object of another group,
// a type or function of another module; an Apply too: the safe side,
// envtest); so are imports of client-go's clients (clientGoClients). A
// call on a fake.NewClientBuilder()...Build() client bound in the same
// function, or held in a package-level variable (findFakeVars), reaches
// no server; a function that passes its
// parameter on as the object (a helper, a wrapping client) is a call of
// the table for its callers, unless its name is used as a value. RBAC
// markers are not read: they grant, and a reconciler granted Events or
// Leases may use neither in a test.
func builtinKindUses(dir, module string) ([]builtinUse, error) {
	idx, err := indexModule(dir, module)
	if err != nil {
		return nil, fmt.Errorf("statuspatch-gen init: %w", err)
	}
	var decls []declScope
	for _, f := range idx.files {
		for _, d := range f.f.Decls {
			fd, isFunc := d.(*ast.FuncDecl)
			gd, isGen := d.(*ast.GenDecl)
			if isFunc && fd.Body != nil || isGen && gd.Tok == token.VAR {
				decls = append(decls, declScope{f, d, newScope(fileCtx{idx, f.pkg, f.imports}, d)})
			}
		}
	}
	table, forwards := forwarders(decls, idx)
	idx.findFakeVars(decls)
	var uses []builtinUse
	use := func(at token.Pos, call, obj, may string) {
		p := idx.fset.Position(at)
		rel, _ := filepath.Rel(dir, p.Filename)
		uses = append(uses, builtinUse{pos: filepath.ToSlash(rel) + ":" + strconv.Itoa(p.Line), call: call, obj: obj, may: may, at: at})
	}
	for _, f := range idx.files {
		for name, s := range f.importSpecs {
			if slices.Contains(clientGoClients, f.imports[name]) || strings.HasPrefix(f.imports[name], "k8s.io/client-go/kubernetes/typed/") {
				use(s.Pos(), "", "", "imports "+f.imports[name]+", whose clients reach any kind, built-in ones too")
			}
		}
	}
	for _, d := range decls {
		c := fileCtx{idx, d.file.pkg, d.file.imports}
		ast.Inspect(d.decl, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok || forwards[call] {
				return true
			}
			name, at, recv := calleeName(call)
			i, ok := tableArg(table, name, recv, call)
			if !ok || recv != nil && d.scope.receiverIsFake(recv, c) {
				return true
			}
			k := c.of(call.Args[i], d.scope)
			if k.unstr {
				k = d.scope.unstructuredKind(call.Args[i], k, c)
			}
			switch {
			case k.builtin():
				use(at, name, k.String(), "")
			case k.may != "":
				// an Apply too: the project's own generated apply
				// configurations and unstructured ones of its groups
				// are resolved; one that is not may be of a built-in kind
				use(at, name, types.ExprString(call.Args[i]), k.may)
			}
			return true
		})
	}
	// exact ones first; each in the files' order, and each file's in its
	// lines' (an inner call of a chain is met after the outer)
	slices.SortStableFunc(uses, func(a, b builtinUse) int {
		return cmp.Or(cmp.Compare(min(len(a.may), 1), min(len(b.may), 1)), cmp.Compare(a.at, b.at))
	})
	return uses, nil
}

// declScope is a declaration of a file, with its scope.
type declScope struct {
	file  *modFile
	decl  ast.Node
	scope *scope
}

// calleeName is the name a call calls (f or x.f, instantiated or not:
// source.Kind[*corev1.ConfigMap]), where, and x.
func calleeName(call *ast.CallExpr) (string, token.Pos, ast.Expr) {
	fun := ast.Unparen(call.Fun)
	switch ix := fun.(type) {
	case *ast.IndexExpr:
		fun = ix.X
	case *ast.IndexListExpr:
		fun = ix.X
	}
	switch fn := fun.(type) {
	case *ast.Ident:
		return fn.Name, fn.Pos(), nil
	case *ast.SelectorExpr:
		return fn.Sel.Name, fn.Sel.Pos(), fn.X // a chain's own line
	}
	return "", token.NoPos, nil
}

// tableArg is which argument of call, to name on recv, is the object
// table says: a call of builtinObjectArg's only on a receiver or package
// (b.For, c.Get, source.Kind), as those are methods and functions of
// other packages; a bare For(c, obj) is the package's own function (as
// the generated patchers' ForType calls theirs). A module function
// forwarders added is called bare too.
func tableArg(table map[string]int, name string, recv ast.Expr, call *ast.CallExpr) (int, bool) {
	i, ok := table[name]
	if _, lib := builtinObjectArg[name]; !ok || lib && recv == nil || i >= len(call.Args) {
		return 0, false
	}
	return i, true
}

// forwarders extends the table with the module's functions that pass a
// parameter on as a table call's object, where the parameter's kind is
// not exact (client.Object): their callers' objects are what reaches the
// server, so the forwarding calls are not uses. Not for a function whose
// name is used as a value (its callers are not all calls by name), nor
// one bound twice to another argument. To a fixed point: a helper of a
// helper forwards too.
func forwarders(decls []declScope, idx *modIndex) (map[string]int, map[*ast.CallExpr]bool) {
	table := maps.Clone(builtinObjectArg)
	values := valueNames(idx)
	forwards := map[*ast.CallExpr]bool{}
	for changed := true; changed; {
		changed = false
		for _, d := range decls {
			fd, ok := d.decl.(*ast.FuncDecl)
			if !ok || values[fd.Name.Name] {
				continue
			}
			params := map[string]int{}
			for _, fl := range fd.Type.Params.List {
				for _, id := range fl.Names {
					params[id.Name] = len(params)
				}
				if len(fl.Names) == 0 {
					params["\x00"+strconv.Itoa(len(params))] = len(params)
				}
			}
			ast.Inspect(fd.Body, func(n ast.Node) bool {
				call, ok := n.(*ast.CallExpr)
				if !ok || forwards[call] {
					return true
				}
				name, _, recv := calleeName(call)
				i, ok := tableArg(table, name, recv, call)
				if !ok {
					return true
				}
				id, ok := ast.Unparen(call.Args[i]).(*ast.Ident)
				if !ok {
					return true
				}
				j, isParam := params[id.Name]
				k := d.scope.kinds[id.Name]
				if !isParam || d.scope.bound[id.Name] != 1 || k.may == "" && !k.unstr {
					return true
				}
				if prev, ok := table[fd.Name.Name]; ok && prev != j {
					return true
				} else if !ok {
					table[fd.Name.Name] = j
					changed = true
				}
				forwards[call] = true
				return true
			})
		}
	}
	return table, forwards
}

// valueNames are the names the module uses other than to call or declare
// them (a method value, a function passed on); another module's names
// (client.Patch, a type) are not the module's functions.
func valueNames(idx *modIndex) map[string]bool {
	values := map[string]bool{}
	for _, f := range idx.files {
		named := map[*ast.Ident]bool{}
		ast.Inspect(f.f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.CallExpr:
				switch fn := n.Fun.(type) {
				case *ast.Ident:
					named[fn] = true
				case *ast.SelectorExpr:
					named[fn.Sel] = true
				}
			case *ast.SelectorExpr:
				if id, ok := n.X.(*ast.Ident); ok && f.imports[id.Name] != "" && idx.pkgs[f.imports[id.Name]] == nil {
					named[n.Sel] = true
				}
			case *ast.FuncDecl:
				named[n.Name] = true
			case *ast.Field:
				for _, id := range n.Names {
					named[id] = true
				}
			case *ast.Ident:
				if !named[n] {
					values[n.Name] = true
				}
			}
			return true
		})
	}
	return values
}
