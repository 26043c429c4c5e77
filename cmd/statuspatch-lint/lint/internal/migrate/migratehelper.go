package migrate

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"maps"
	"slices"
	"strings"

	"golang.org/x/tools/go/analysis"
)

// A write-only helper, func (r *R) updateStatus(ctx, obj *T, ...) error
// whose c.Status().Update(ctx, obj) writes a parameter, moves by taking
// the patcher instead of the object: the parameter becomes objPatcher
// *<Kind>StatusPatcher, the body starts with obj := objPatcher.Object()
// (the rest of it unchanged: what it does before the write changes at most
// obj's status), and the write becomes objPatcher.Flush(ctx). Each caller
// makes the patcher where it read the object (a Get of it, or a copy of a
// read: findGet) and passes it. Every caller must move, or none does: the
// helper is unexported, every use of it is a call seen in the package, no
// test file of the package calls it (lint.Config.TestRefs, or the test files
// loaded), and each call's object has the shape a direct write needs. A
// Patch with client.MergeFrom(base), base a parameter used only there,
// moves the same way: the base parameter and each call's base argument
// go, and the caller's base := obj.DeepCopy() is where it makes the
// patcher (callerAnchor).

// helperMove is the move of a write in a write-only helper: the helper's
// declaration and the parameter its callers' base or patch comes in by.
// The migration it embeds is the write's in the helper.
type helperMove struct {
	*migration
	decl           *ast.FuncDecl   // the helper whose parameter obj is
	baseParam      *types.Var      // the helper's parameter its client.MergeFrom(base) takes, for a Patch, or its patch (patchParam)
	patchParam     bool            // baseParam is the patch itself, which each caller makes (migratehelperpatch.go)
	dropClient     *types.Var      // an exported helper's client parameter, used only by the write: it goes (migrateexported.go)
	composeCallers bool            // a caller that writes the object too passes its own patcher (migrateexported.go)
	also           []*ast.CallExpr // the helper's other status writes of obj, Flushes of the same patcher (helperGroup)
	alias          *types.Var      // the local m := obj the writes name, if they do (paramAlias)
	aliasDef       ast.Stmt        // alias's definition
	scope          *scopeField     // obj is m := s.F of a scope parameter s (migratescopefield.go)
	chain          []*ast.FuncDecl // the links between decl and the write's helper, when decl is a link (migratehelperchain.go)
	patcher        *Patcher        // the write's kind's patcher, when its write is of another package (an exported helper's HelperFact)
	kindOnly       types.Type      // only the calls passing an object of this type (an exported helper over an interface: migrategenericexported.go)
	argSuffix      string          // after the patcher's name in the call's argument: ".Patcher()" for such a helper
}

// droppedParams are the helper's parameters that go with the move: the
// base or patch its callers give, the client only the write used.
func (h *helperMove) droppedParams() []*types.Var {
	var gone []*types.Var
	for _, v := range []*types.Var{h.baseParam, h.dropClient} {
		if v != nil {
			gone = append(gone, v)
		}
	}
	return gone
}

// helperDecl returns the declaration of the function of which m.obj is a
// parameter, when the write is an Update in that declaration's body.
func (m *migration) helperDecl() *ast.FuncDecl {
	fd, ok := m.enclosingFunc().(*ast.FuncDecl)
	if !ok || fd.Body == nil || m.paramOf(m.obj) != fd.Name.Name {
		return nil
	}
	return fd
}

func (m *migration) isObj(e ast.Expr) bool {
	return passesObj(m.pass.TypesInfo, m.obj, e) // obj, or &obj of a value (migratevalue.go)
}

// A helperCaller is one function calling the helper with one object: its
// calls, each made with a patcher made at the anchor of its migration.
type helperCaller struct {
	calls []*migration
	// shared is the patcher of the caller's own status writes of the
	// object, which the calls pass (a caller that writes the object too,
	// of an exported helper: migrateexported.go); "" when the calls make
	// their own.
	shared       string
	sharedUnsent bool                   // shared is made with patcher.WithNonStatusChangesUnsent()
	sharedAt     token.Pos              // the caller's own write whose fix makes shared
	sharedFix    *analysis.SuggestedFix // that write's fix
	writes       bool                   // the caller writes the object's status itself too
	setLate      bool                   // a call's client is set after the read: its patcher is made there (migrateclientset.go)
	link         *chainLink             // the caller hands on its own parameter: a link of the chain (migratehelperchain.go)
	clients      []ast.Expr             // each call's client, the patcher's, or its root (callerClient)
	rests        []string               // the rest of each call's client after clients[i] (".c")
}

// helperFix builds the fix of a write in a helper (h.decl), or says why
// the helper's callers cannot all make the patcher.
func (h *helperMove) helperFix(p Patcher, files Files, ws []*Write, opts Options) (*analysis.SuggestedFix, string) {
	fd := h.decl
	name := fd.Name.Name
	var alone string // only this package is analyzed: the reason, when the module's checks pass
	why := func(format string, args ...any) (*analysis.SuggestedFix, string) {
		return nil, h.shapeWhy(h.obj.Name() + " is a parameter of " + name + ": " + fmt.Sprintf(format, args...))
	}
	if h.scope != nil {
		return scopeFix(h, p, files, ws, opts)
	}
	fn, _ := h.pass.TypesInfo.Defs[fd.Name].(*types.Func)
	exported := false
	if fn == nil || token.IsExported(name) {
		// Its callers in other packages are not seen: the move is by hand,
		// named by its API; unless the whole module is analyzed
		// (Options.Module): then it moves with them (migrateexported.go).
		// Alone, the checks go on as the module's: a reason of theirs is
		// its reason, and when they pass, its callers' reason says the
		// module moves it (HelperFact.Alone).
		if byHand := h.exportedWhy(fn, name, p, true); byHand != "" {
			return why("%s", byHand)
		}
		if !opts.Module {
			alone = h.exportedWhy(fn, name, p, false)
		}
		exported = true
	}
	if fd.Recv != nil && h.interfaceHas(name) {
		return why("an interface of the package has a method %s: calls through it are not seen", name)
	}
	also, problem := helperGroup(h, files, ws, opts)
	if problem != "" {
		return why("%s", problem)
	}
	h.also = also
	h.moved = map[*ast.CallExpr]bool{h.call: true}
	last := h.call.Pos() // the uses up to its last write change at most the status
	for _, c := range also {
		h.moved[c], last = true, max(last, c.Pos())
	}
	if h.apply != nil {
		if problem := h.checkApplyHelper(ws, files); problem != "" {
			return why("%s", problem)
		}
	} else if problem := helperUses(h, last); problem != "" {
		return why("%s", problem)
	}
	index, recvRoot, clientRest, problem := h.helperClient(fd)
	if problem != "" {
		return why("%s", problem)
	}
	objIndex := slices.IndexFunc(h.params(), func(v *types.Var) bool { return v == h.obj })
	h.composeCallers = !exported || opts.Module // its callers in other packages are composed by the command's members (ExportedCallers), here by its fix
	callers, problem := h.helperCallers(fn, objIndex, index, recvRoot, clientRest, files, ws, exported, opts)
	for _, hc := range callers {
		if problem == "" && hc.writes {
			problem = callerShared(h.pass, files, ws, opts, hc, h.owner)
		}
		if problem == "" && hc.shared != "" {
			problem = h.sameClient(hc, files, ws)
		}
	}
	if problem != "" {
		return why("%s", problem)
	}
	if exported {
		// Its callers' packages, and every test file, are the command's to
		// check (migrateexported.go).
		h.dropClient = h.clientOnlyWritten(fd, index, recvRoot)
		fix, w := h.helperEdits(p, fd, callers)
		if fix != nil && !askAssumed(h.pass) { // an asked fix's assumption (askStacks)
			exportLinks(h, callers, p, opts, false)
			h.exportHelper(fn, HelperFact{ObjIndex: objIndex, ClientIndex: index, ClientRest: clientRest, DropClient: h.dropClient != nil, Patcher: p, Alone: alone != "", At: h.at(), Subresource: subresourceWrite(h.call)}, opts, len(callers) > 0)
		}
		if alone != "" {
			return why("%s", alone)
		}
		return fix, w
	}
	var tests *GroupMember
	if problem := h.testsMayCall(name, opts); problem != "" {
		// Its test files' calls move with it when the module's driver
		// rewrites them (migratehelpertests.go).
		member, fact := h.testCallsMember(fn, index, recvRoot, clientRest, p, callers, opts)
		if member == nil && fact != "" {
			problem += " (" + fact + ")"
		}
		if member == nil {
			return why("%s", problem)
		}
		tests = member
	}
	fix, w := h.helperEdits(p, fd, callers)
	if fix != nil && !askAssumed(h.pass) {
		exportLinks(h, callers, p, opts, false)
		if tests != nil {
			*opts.Members = append(*opts.Members, *tests)
		}
	}
	return fix, w
}

// helperClient returns where the helper's client comes from: its
// receiver (index -1) or its parameter index, and the rest of the client
// expression after that root (".client", "").
func (h *helperMove) helperClient(fd *ast.FuncDecl) (int, bool, string, string) {
	root := h.client
	for {
		sel, ok := ast.Unparen(root).(*ast.SelectorExpr)
		if !ok {
			break
		}
		root = sel.X
	}
	id, ok := ast.Unparen(root).(*ast.Ident)
	if !ok {
		return 0, false, "", "its client " + h.clientText + " is not its receiver's or a parameter's"
	}
	rest := strings.TrimPrefix(h.clientText, id.Name)
	v, _ := h.pass.TypesInfo.Uses[id].(*types.Var)
	if v != nil && fd.Recv != nil && len(fd.Recv.List) == 1 && len(fd.Recv.List[0].Names) == 1 && h.pass.TypesInfo.Defs[fd.Recv.List[0].Names[0]] == v {
		return -1, true, rest, ownClientSet(h, fd, v) // migrateclientset.go
	}
	i := 0
	for _, field := range fd.Type.Params.List {
		for _, n := range field.Names {
			if v != nil && h.pass.TypesInfo.Defs[n] == v {
				return i, false, rest, ownClientSet(h, fd, v)
			}
			i++
		}
	}
	return 0, false, "", "its client " + h.clientText + " is not its receiver's or a parameter's"
}

// helperCallers checks every use of fn in the package, which passes its
// object as argument objIndex, and returns its callers, grouped by
// function and object. none allows no caller (an exported helper's may
// all be in other packages).
func (h *helperMove) helperCallers(fn *types.Func, objIndex, index int, recvRoot bool, clientRest string, files Files, ws []*Write, none bool, opts Options) ([]*helperCaller, string) {
	var callers []*helperCaller
	byKey := map[[2]any]*helperCaller{}
	for _, f := range h.pass.Files {
		for cur := range h.usesOf(f, fn, f.FileStart, f.FileEnd) {
			id := cur.Node().(*ast.Ident)
			line := h.pass.Fset.Position(id.Pos()).Line
			call, recv := callOf(cur)
			if call == nil || call.Ellipsis.IsValid() || objIndex >= len(call.Args) {
				return nil, fmt.Sprintf("it is used at line %d other than in a call", line)
			}
			if !files.Checked(call.Pos()) {
				return nil, fmt.Sprintf("its call at line %d is in a test or generated file", line)
			}
			if h.kindOnly != nil && !types.Identical(h.pass.TypesInfo.TypeOf(call.Args[objIndex]), h.kindOnly) {
				continue // another kind's call, planned with its own patcher
			}
			c := &migration{site: site{place: place{calls: h.calls, file: f, call: call, path: pathOf(cur)}}, audit: h.audit, module: h.module, assumed: h.assumed, unsentOK: h.unsentOK, patcherType: h.patcherType}
			arg, ok := ast.Unparen(call.Args[objIndex]).(*ast.Ident)
			if u, isAddr := ast.Unparen(call.Args[objIndex]).(*ast.UnaryExpr); isAddr && u.Op == token.AND && h.apply == nil {
				arg, ok = ast.Unparen(u.X).(*ast.Ident) // &js of a local value read by Get (jobset)
			}
			v, _ := h.pass.TypesInfo.Uses[arg].(*types.Var)
			if ok && v != nil && arg != ast.Unparen(call.Args[objIndex]) && (!valueObj(v) || v.Parent() == nil || v.Parent() == h.pass.Pkg.Scope()) {
				v = nil
			}
			if !ok || v == nil {
				return nil, fmt.Sprintf("its call at line %d %s", line, c.argText(call.Args[objIndex]))
			}
			c.obj = v
			clientExpr := recv
			if !recvRoot {
				clientExpr = call.Args[index]
			}
			clientExpr, rest, why := h.callerClient(c, clientExpr, recvRoot, clientRest, line)
			if why != "" {
				return nil, why
			}
			if recvRoot && !h.directMethod(call) {
				return nil, fmt.Sprintf("its call at line %d reaches it through an embedded field", line)
			}
			c.clientText = types.ExprString(clientExpr) + rest
			if name, w, ok := passedPatcher(h, c, clientExpr, files, ws, opts); ok {
				// Its code makes the object's patcher already: the call
				// passes it (lifepatcher.go).
				if w != "" {
					return nil, fmt.Sprintf("its caller at line %d: %s", line, w)
				}
				key := [2]any{c.enclosingFunc(), v}
				if byKey[key] == nil {
					byKey[key] = &helperCaller{shared: name}
					callers = append(callers, byKey[key])
				}
				hc := byKey[key]
				hc.calls = append(hc.calls, c)
				hc.clients, hc.rests = append(hc.clients, clientExpr), append(hc.rests, rest)
				continue
			}
			if w := h.callerAnchor(c); c.anchor == nil {
				if !linkable(h, c) {
					return nil, fmt.Sprintf("its caller at line %d: %s", line, w)
				}
				// It hands on its own parameter: a link of the chain
				// (migratehelperchain.go), checked with its other calls.
				key := [2]any{c.enclosingFunc(), v}
				if byKey[key] == nil {
					byKey[key] = &helperCaller{link: &chainLink{}}
					callers = append(callers, byKey[key])
				}
				hc := byKey[key]
				hc.calls = append(hc.calls, c)
				hc.clients, hc.rests = append(hc.clients, clientExpr), append(hc.rests, rest)
				continue
			}
			if w := callerBesideHelper(c, files, ws); w != "" {
				return nil, w
			}
			setLine, why := clientSetAfterRead(c, clientExpr, rest, line) // migrateclientset.go
			if why != "" {
				return nil, why
			}
			if at := clientAssigned(&c.place, clientExpr, c.anchor.End(), call.Pos()); at.IsValid() {
				return nil, fmt.Sprintf("its call at line %d names its client %s, assigned at %s, after the read the patcher is made at", line, types.ExprString(clientExpr), c.where(at))
			}
			if c.declaredBefore(clientExpr, c.anchor.Pos()) != "" {
				return nil, fmt.Sprintf("its call at line %d names its client %s, declared after the read the patcher is made at", line, types.ExprString(clientExpr))
			}
			fnNode := c.enclosingFunc()
			writes := false
			for _, o := range ws {
				// In apply mode, any status write beside: the patcher's.
				if oc, ok := files.Calls[o.Lparen]; ok && fnNode.Pos() <= oc.Pos() && oc.End() <= fnNode.End() && (h.apply != nil || len(oc.Args) > 1 && c.isObj(oc.Args[1])) {
					what := v.Name() + "'s status"
					if h.apply != nil {
						what = "a status"
					}
					if h.composeCallers && h.apply == nil {
						writes = true // its own patcher, if its writes move
						continue
					}
					return nil, fmt.Sprintf("its caller at line %d also writes %s at line %d: move them by hand", line, what, h.pass.Fset.Position(oc.Pos()).Line)
				}
			}
			key := [2]any{fnNode, v}
			hc := byKey[key]
			if hc == nil {
				hc = &helperCaller{}
				byKey[key] = hc
				callers = append(callers, hc)
			}
			if setLine > 0 && writes {
				return nil, fmt.Sprintf("its caller at line %d also writes %s's status, with a patcher made at its read, before the client %s%s of its call is set at line %d", line, v.Name(), types.ExprString(clientExpr), rest, setLine)
			}
			if len(hc.calls) > 0 && (setLine > 0 || hc.setLate) && hc.calls[0].anchor != c.anchor {
				return nil, fmt.Sprintf("its calls at line %d and %d would make the patcher at two places (line %d, where the client of one is set, and line %d)", h.pass.Fset.Position(hc.calls[0].call.Pos()).Line, line, h.pass.Fset.Position(hc.calls[0].anchor.Pos()).Line, h.pass.Fset.Position(c.anchor.Pos()).Line)
			}
			hc.writes = hc.writes || writes
			hc.setLate = hc.setLate || setLine > 0
			hc.calls = append(hc.calls, c)
			hc.clients, hc.rests = append(hc.clients, clientExpr), append(hc.rests, rest)
		}
	}
	if len(callers) == 0 && !none {
		return nil, "it has no caller in the package (the patcher is made where its callers read it; move the write there)"
	}
	for _, hc := range callers {
		if hc.link != nil {
			if w := linkCallers(h, hc, files, ws, opts); w != "" {
				return nil, w
			}
			continue
		}
		if h.apply != nil {
			for _, c := range hc.calls {
				if w := h.checkApplyCaller(c); w != "" {
					return nil, fmt.Sprintf("its caller at line %d: %s", h.pass.Fset.Position(c.call.Pos()).Line, w)
				}
			}
			continue
		}
		if hc.writes {
			continue // the caller's own group checks its uses (migrateexported.go)
		}
		moved := map[*ast.CallExpr]bool{h.call: true} // reached through a link too
		for _, call := range h.also {
			moved[call] = true
		}
		bases := map[*types.Var]int{}
		for _, c := range hc.calls {
			moved[c.call] = true
			if c.baseVar != nil {
				bases[c.baseVar]++
			}
		}
		for _, c := range hc.calls {
			if c.baseVar != nil {
				// base := obj.DeepCopy() goes when the calls are its only uses.
				c.keep = c.uses(c.baseVar) != bases[c.baseVar]
			}
			c.moved = maps.Clone(moved)
			moving := movingHelperWrites(c, h.decl, files, ws, opts)
			for _, call := range moving {
				c.moved[call] = true // another helper's write, given the same patcher
			}
			if w := callerOwner(h, c, moving, files, ws, opts); w != "" {
				return nil, w
			}
			if w := c.checks().unsentMutations(h.call); w != "" {
				return nil, fmt.Sprintf("its caller at line %d: %s", h.pass.Fset.Position(c.call.Pos()).Line, w)
			}
		}
		if w := h.callerClients(hc, files, ws, opts); w != "" {
			return nil, w
		}
		if !unsentCalls(hc.calls) && helpersUnsent(hc.calls[0], h.decl, files, ws, opts) {
			hc.calls[0].unsent = true // the caller's one patcher (helpersUnsent)
		}
	}
	return callers, ""
}

// params returns the helper's parameters in order (paramVars).
func (h *helperMove) params() []*types.Var { return paramVars(h.pass, h.decl) }
