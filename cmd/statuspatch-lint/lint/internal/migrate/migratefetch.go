package migrate

import (
	"go/ast"
	"go/token"
	"go/types"
	"slices"
	"strconv"

	"golang.org/x/tools/go/analysis"
)

// A re-read: c.Get of the object after a status write of it that moves,
// the kubebuilder scaffold's "re-fetch before updating the status". Its
// patcher is fetched, not made from the read: Fetch<Kind>StatusPatcher
// reads the object and knows when the read came from a cache behind this
// process's own write (the one just flushed), which it reads again
// through the manager's API reader, or reports (patcher.ErrStaleCache),
// instead of a base older than that write. The Get statement becomes
//
//	objPatcher2, err := patchers.FetchWidgetStatusPatcher(ctx, c, key)
//	if err != nil {
//		return ... // the user's error handling, kept
//	}
//	obj = objPatcher2.Object()
//
// An object held as a value (var obj Widget, read into &obj) is read
// again into itself where the generated package has
// Fetch<Kind>StatusPatcherInto, and the patcher of the read before it
// (or the one spanning the re-read) is assigned again, one patcher all
// along (migratevalue.go's reuseEarlier):
//
//	objPatcher, err = patchers.FetchWidgetStatusPatcherInto(ctx, c, key, &obj)
//
// Where that rewrite would change what the code does (the error ignored,
// Get's options, another reader, an else branch or an error branch that
// goes on, the object a parameter or aliased or given to a defer or go
// statement before the re-read, err shadowed), the Get
// stays and the patcher is made after it.
type fetchPlan struct {
	get        ast.Stmt      // the Get statement
	call       *ast.CallExpr // the Get
	ifStmt     *ast.IfStmt   // the error check, after which the object is taken
	from       token.Pos     // the text replaced by the Fetch (and "if ")
	to         token.Pos
	inIf       bool     // the Get is the if's init
	errName    string   // the error variable
	define     bool     // name, err := ...; else var name *T, then name, err = ...
	reuse      ast.Stmt // the anchor of the patcher the Fetch is assigned to, if any
	declareErr bool     // with reuse: var err error first
	into       bool     // a value read into itself: Fetch<Kind>StatusPatcherInto, with reuse
	sameBlock  bool     // with declareErr: the patcher's variable is the block's, name, err := declares err
	// with into and reuse: a function literal flushes the patcher (a
	// deferred one runs after a failed re-read), so the Fetch goes to a
	// variable of its own, assigned to the patcher's on success only.
	onSuccess bool
	// with into and reuse: no Flush of the patcher can follow the
	// re-read, so the Fetch keeps only its read (migratefetchdrop.go).
	drop bool
	// the if's own error variable, renamed errName where it would shadow
	// or overwrite an outer one (migratefetchrename.go)
	renamed types.Object
}

// planFetches makes each re-read of the group (a Get anchor after a write
// of the group) a Fetch, where it can. A re-read in a branch that a
// patcher made before it and flushed after it spans (kubebuilder's
// "re-fetch" in an if, the reconcile's last write after it) assigns the
// Fetch to that patcher's variable, so the later Flush writes the object
// fetched on the path that re-read it, and the first one on the other.
// p.Into: the generated package has Fetch<Kind>StatusPatcherInto. It
// says why the group stays (pointerHeld), "" when it moves.
func planFetches(group []*migration, p Patcher) string {
	byRead := slices.Clone(group) // a re-read after an earlier one may assign its patcher
	slices.SortFunc(byRead, func(a, b *migration) int { return int(a.anchor.Pos()) - int(b.anchor.Pos()) })
	for _, g := range byRead {
		if g.get == nil {
			continue
		}
		after := false
		var spans []ast.Stmt
		for _, h := range group {
			if h.call.End() <= g.get.Pos() {
				after = true
			}
			if h.anchor != g.anchor && h.anchor.Pos() < g.get.Pos() && g.get.Pos() < h.call.Pos() && !slices.Contains(spans, h.anchor) {
				spans = append(spans, h.anchor)
			}
		}
		if !after {
			continue
		}
		if len(spans) > 1 {
			g.keptGets.keep(g.get, "the patchers of more than one earlier read span it")
			continue
		}
		var why string
		if g.fetch, why, _ = g.planFetchWhy(g.get, g.getCheck); g.fetch != nil && len(spans) == 1 {
			g.fetch.reuse = spans[0]
			if !g.fetch.planReuse(g) {
				g.fetch, why = nil, "its error variable cannot be the spanning patcher's"
			}
		}
		if g.fetch == nil {
			g.keptGets.keep(g.get, why)
			continue
		}
		// A pointer reads into the object it points to only where a
		// write of an earlier patcher runs after the re-read.
		obj := valueObj(g.obj) || pointerHeld(group, g, g.get, nil, p) != ""
		g.fetch.into = p.Into && obj && (g.fetch.reuse != nil || g.fetch.reuseEarlier(group, g))
		if why := pointerHeld(group, g, g.get, g.fetch, p); why != "" {
			g.fetch = nil
			return why
		}
		g.fetch.onSuccess = g.fetch.into && literalFlush(group, g, g.fetch.reuse)
		g.fetch.planDrop(g, flushesOf(group, g.fetch.reuse))
	}
	return ""
}

// planReuse decides how the Fetch assigns the spanning patcher's variable
// (no := , which would declare another in the branch) and the error.
func (f *fetchPlan) planReuse(m *migration) bool {
	as := f.ifStmt.Init
	if !f.inIf {
		as = f.get
	}
	a := as.(*ast.AssignStmt)
	id := a.Lhs[0].(*ast.Ident)
	switch {
	case a.Tok != token.DEFINE:
		return true // err = c.Get(...): err = Fetch's error, as before
	case !f.inIf:
		f.declareErr = true // err := c.Get(...): declared here, as before
		return true
	}
	scope := m.blockScope(f.get)
	_, outer := scope.LookupParent(f.errName, f.get.Pos())
	if outer == nil || outer.Parent() == types.Universe || m.isResult(outer) && !m.reads().bareReturnAfter(f.get) {
		f.declareErr = scope.Lookup(f.errName) == nil
		return f.declareErr
	}
	return outer.Parent() != m.pass.Pkg.Scope() && !m.isResult(outer) &&
		types.Identical(outer.Type(), m.pass.TypesInfo.ObjectOf(id).Type()) && m.assignedNext(outer, f.ifStmt.End())
}

// planFetchWhy returns the rewrite of g's Get, or nil and why it stays a
// Get, in words a finding can end with; held is the defer or go statement
// before it that is given the object, when that is why (argHeldBefore).
func (m *migration) planFetchWhy(get, check ast.Stmt) (f *fetchPlan, why string, held ast.Stmt) {
	f = &fetchPlan{get: get}
	var as *ast.AssignStmt
	switch s := get.(type) {
	case *ast.IfStmt:
		as, _ = s.Init.(*ast.AssignStmt)
		f.ifStmt, f.inIf, f.from, f.to = s, true, s.Pos(), s.Cond.Pos()
	case *ast.AssignStmt:
		as = s
		f.ifStmt, _ = check.(*ast.IfStmt)
		f.from, f.to = s.Pos(), s.End()
	}
	switch {
	case as == nil || len(as.Lhs) != 1 || len(as.Rhs) != 1:
		return nil, "its error is not assigned to one variable", nil
	case isBlank(as.Lhs[0]):
		return nil, "its error is ignored", nil
	case f.ifStmt == nil:
		return nil, "its error is not checked by an if right after it", nil
	case f.ifStmt.Else != nil:
		return nil, "its error check has an else branch", nil
	case !terminates(f.ifStmt.Body):
		return nil, "its error branch does not end in a return", nil
	}
	f.call, _ = ast.Unparen(as.Rhs[0]).(*ast.CallExpr)
	id, _ := as.Lhs[0].(*ast.Ident)
	switch {
	case f.call == nil || id == nil || id.Name == "_":
		return nil, "its error is ignored", nil
	case len(f.call.Args) != 3 || f.call.Ellipsis.IsValid():
		return nil, "it passes Get options, which Fetch does not take", nil
	}
	sel, ok := ast.Unparen(f.call.Fun).(*ast.SelectorExpr)
	switch {
	case !ok || types.ExprString(sel.X) != types.ExprString(m.client):
		return nil, "it reads through another client than the write's", nil
	case !m.localUnaliased():
		return nil, m.obj.Name() + " is a parameter, or aliased, and would not be the fetched object", nil
	}
	if why := identityKept(m, get); why != "" {
		return nil, why, nil
	}
	if !isNotNil(m.pass, f.ifStmt.Cond, identOf(m.pass, id)) {
		// if err := c.Get(...); client.IgnoreNotFound(err) != nil: a
		// NotFound goes on, where a Fetch leaves the patcher nil (s117).
		return nil, "its error check is not " + id.Name + " != nil, and a failed Fetch would leave the patcher nil where the code goes on", nil
	}
	f.errName = id.Name
	scope := m.blockScope(get)
	if scope == nil {
		return nil, "its block is not known", nil
	}
	errVar := m.pass.TypesInfo.ObjectOf(id)
	switch {
	case as.Tok == token.DEFINE && !f.inIf:
		f.define = true // err := c.Get(...): err is new here
	case as.Tok == token.DEFINE:
		// if err := c.Get(...); ...: err was the if's own; after the
		// rewrite it is the block's, the block's own err or a new one
		// shadowing an outer err: that err's value must not be read
		// before it is set again.
		_, outer := scope.LookupParent(id.Name, get.Pos())
		switch {
		case outer == nil || outer.Parent() == types.Universe:
			f.define = scope.Lookup(id.Name) == nil
		case outer.Parent() == scope:
			f.define = types.Identical(outer.Type(), errVar.Type()) && m.assignedNext(outer, f.ifStmt.End())
		case outer.Parent() != m.pass.Pkg.Scope() && !m.isResult(outer):
			f.define = m.assignedNext(outer, f.ifStmt.End()) && m.assignedNext(outer, m.blockEnd(get))
		case m.isResult(outer):
			// A named result (a deferred write's err): an err of the
			// block shadows it, which only a bare return would notice.
			f.define = scope.Lookup(id.Name) == nil && !m.reads().bareReturnAfter(get)
		}
		if !f.define {
			if why := f.planRename(m, errVar); why != "" {
				return nil, why, nil
			}
		}
	default:
		f.define = errVar.Parent() == scope
	}
	if held, arg := argHeldBefore(m, get); held != nil {
		return nil, argHeldWhy(m, held, arg), held
	}
	return f, "", nil
}

// isBlank reports whether e is the blank identifier.
func isBlank(e ast.Expr) bool {
	id, ok := e.(*ast.Ident)
	return ok && id.Name == "_"
}

// terminates reports whether body ends in a return: no code of the
// function runs after a failed read, which leaves the Fetch's patcher
// variable nil. A break, continue or goto goes on to code (after the
// loop, the loop's next turn, the label) that may flush that variable,
// where the Get left the object and the write went on.
func terminates(body *ast.BlockStmt) bool {
	if len(body.List) == 0 {
		return false
	}
	_, ok := body.List[len(body.List)-1].(*ast.ReturnStmt)
	return ok && !jumpsOut(body, false, false)
}

// jumpsOut reports whether a branch statement in n may jump out of it
// before its last return: a goto, a labelled break or continue, or one
// no loop (continue) or loop, switch or select (break) inside n catches.
// Function literals are their own.
func jumpsOut(n ast.Node, loop, breakable bool) bool {
	found := false
	ast.Inspect(n, func(x ast.Node) bool {
		if found || x == nil {
			return false
		}
		switch x := x.(type) {
		case *ast.FuncLit:
			return false
		case *ast.ForStmt, *ast.RangeStmt:
			if x != n {
				found = jumpsOut(x, true, true)
				return false
			}
		case *ast.SwitchStmt, *ast.TypeSwitchStmt, *ast.SelectStmt:
			if x != n {
				found = jumpsOut(x, loop, true)
				return false
			}
		case *ast.BranchStmt:
			found = x.Tok == token.GOTO || x.Label != nil ||
				x.Tok == token.BREAK && !breakable || x.Tok == token.CONTINUE && !loop
		}
		return !found
	})
	return found
}

// localUnaliased reports whether the object is a variable declared in the
// body of its function whose value is never copied elsewhere: taking the
// Fetch's object in its place changes no other holder.
func (m *migration) localUnaliased() bool {
	var body *ast.BlockStmt
	switch f := m.enclosingFunc().(type) {
	case *ast.FuncDecl:
		body = f.Body
	case *ast.FuncLit:
		body = f.Body
	}
	if body == nil || m.obj.Pos() < body.Pos() || m.obj.Pos() >= body.End() {
		return false
	}
	for c := range m.usesOf(body, m.obj, body.Pos(), body.End()) {
		switch p := c.Parent().Node().(type) {
		case *ast.AssignStmt:
			if !isLHS(p, c.Node()) {
				return false
			}
		case *ast.ValueSpec, *ast.CompositeLit, *ast.KeyValueExpr, *ast.SendStmt:
			return false
		case *ast.CallExpr:
			if b, isB := m.pass.TypesInfo.Uses[calledIdent(p)].(*types.Builtin); isB && b.Name() == "append" {
				return false
			}
		}
	}
	return true
}

func calledIdent(call *ast.CallExpr) *ast.Ident {
	switch f := ast.Unparen(call.Fun).(type) {
	case *ast.Ident:
		return f
	case *ast.SelectorExpr:
		return f.Sel
	}
	return nil
}

// edits rewrites the Get of f, a re-read of m's object, into the Fetch of
// the patcher name, made with the options opts (",
// patcher.WithFieldOwner(o)", or "").
func (f *fetchPlan) edits(m *migration, qual, typ, name, opts string) []analysis.TextEdit {
	indent := m.text().indent(f.get.Pos())
	args := types.ExprString(f.call.Args[0]) + ", " + m.clientText + ", " + types.ExprString(f.call.Args[1])
	fetch := qual + "Fetch" + typ + "(" + args + opts + ")"
	if f.into {
		fetch = qual + "Fetch" + typ + "Into(" + args + ", " + objText(m.obj) + opts + ")"
	}
	if f.drop {
		return f.dropEdits(fetch)
	}
	rename := f.renameEdits(m)
	var text, assign string
	if f.onSuccess {
		name, assign = f.fetchedName(m, name), name
	}
	switch {
	case assign != "" && f.declareErr:
		text = name + ", " + f.errName + " := " + fetch
	case assign != "":
		text = "var " + name + " *" + qual + typ + "\n" + indent + name + ", " + f.errName + " = " + fetch
	case f.reuse != nil && f.declareErr && f.sameBlock:
		text = name + ", " + f.errName + " := " + fetch
	case f.reuse != nil && f.declareErr:
		text = "var " + f.errName + " error\n" + indent + name + ", " + f.errName + " = " + fetch
	case f.reuse != nil:
		text = name + ", " + f.errName + " = " + fetch
	case f.define:
		text = name + ", " + f.errName + " := " + fetch
	default:
		text = "var " + name + " *" + qual + typ + "\n" + indent + name + ", " + f.errName + " = " + fetch
	}
	if f.inIf {
		text += "\n" + indent + "if "
	}
	after := "\n" + indent + m.obj.Name() + " = " + name + ".Object()"
	if assign != "" {
		after = "\n" + indent + assign + " = " + name // the patcher stays on a failed read
	} else if f.into {
		after = "" // read into the value itself, which the patcher is over
	} else if valueObj(m.obj) {
		// A value (migratevalue.go): Fetch read into an object of its
		// own; the value takes what it read, and the patcher is made
		// again over the value, which the code goes on changing. Not
		// the Get kept and one New after it: New does not know its read
		// came after the write just flushed, which Fetch checks (a
		// cache behind that write read again through the API reader,
		// or ErrStaleCache), so the base could be older than the write.
		after = "\n" + indent + m.obj.Name() + " = *" + name + ".Object()" +
			"\n" + indent + name + " = " + qual + "New" + typ + "(" + m.clientText + ", " + objText(m.obj) + opts + ")"
	}
	edits := []analysis.TextEdit{{Pos: f.from, End: f.to, NewText: []byte(text)}}
	if after != "" {
		edits = append(edits, analysis.TextEdit{Pos: f.ifStmt.End(), End: f.ifStmt.End(), NewText: []byte(after)})
	}
	return append(edits, rename...)
}

// fetchedName is the variable of f's Fetch with onSuccess: name+"Fetched",
// or with 2, 3... the first not taken in the function.
func (f *fetchPlan) fetchedName(m *migration, name string) string {
	out := name + "Fetched"
	for i := 2; m.text().nameTaken(out); i++ {
		out = name + "Fetched" + strconv.Itoa(i)
	}
	return out
}

// bareReturnAfter reports whether a return without results follows s in
// its block (outside function literals): a variable of the block that
// shadows a named result fails it to compile.
func (m reads) bareReturnAfter(s ast.Stmt) bool {
	b := m.block(s)
	if b == nil {
		return true
	}
	found := false
	ast.Inspect(b, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.ReturnStmt:
			if n.Pos() > s.End() && len(n.Results) == 0 {
				found = true
			}
		}
		return !found
	})
	return found
}
