package migrate

import (
	"go/ast"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/analysis"
)

// A migration moves one handwritten status write of a typed object onto
// its generated patcher: the patcher is made from the object where the
// write's base is taken (base := obj.DeepCopy(), patch :=
// client.MergeFrom(obj.DeepCopy()), or, for Update, the Get that read the
// object), the status mutations stay on the object in between, and the
// write becomes the patcher's Flush, whose error the user's code handles
// as it handled the write's.
//
// The status writes of one object in one function move together or not
// at all: writes whose base is taken at the same place share one patcher
// (its Flush makes the response the next base, as the handwritten code's
// object held the response), a write after a re-read (the kubebuilder
// scaffold's "re-fetch before updating the status") gets a patcher made
// after that Get.
type migration struct {
	site       // the write's call, where it sits in its file
	client     ast.Expr
	clientText string // the patcher's client: client, or its embedded client.Client
	obj        *types.Var
	anchor     ast.Stmt    // where the patcher is made
	keep       bool        // the anchor statement stays (its base is used elsewhere); the patcher is made after it
	baseVar    *types.Var  // the base's variable, when the anchor declares it
	helper     *helperMove // the write is in a helper whose parameter obj is: its callers make the patcher
	moved      map[*ast.CallExpr]bool
	audit      bool         // an audit: no reasons for shapes -fix does not move (migratewhy.go)
	module     bool         // the whole module is analyzed (Options.Module)
	assumed    *[]IfaceCall // Options.Assumed (paramsimplsmodule.go)
	unsentOK   bool         // Options.NonStatusUnsent (migrateunsent.go)
	callback   *callbackUse // the object handed to a function parameter of the helper (migratecallback.go)

	get        ast.Stmt     // the Get statement the anchor reads the object with, if any
	getCheck   ast.Stmt     // the if that checks get's error, when get is err := c.Get(...)
	late       ast.Stmt     // a base taken after the status changes (migratemerge.go), dropped
	lateVar    *types.Var   // late's variable
	lateKeep   bool         // late stays (its variable is used elsewhere)
	lateInline bool         // the base is taken at the write: client.MergeFrom(obj.DeepCopy())
	lateFresh  bool         // late is taken with nothing changed since the life's read (life.go)
	fetch      *fetchPlan   // the re-read made a Fetch of the patcher (migratefetch.go)
	rereads    []*fetchPlan // re-reads the patcher spans, made Fetches into it
	apply      *applyMove   // an apply configuration's write, onto apply mode (migrateapply.go)
	keptGets   keptGets     // re-reads of the object after a moved write that stay Gets (migratekept.go)
	drop       []ast.Stmt   // statements the fix deletes: a reused patch built from a copy (migratereuse.go)
	copyVar    *types.Var   // the copy the dropped patch is built from (migratereuse.go)
	owner      fieldOwner   // a merge write's field owner, for patcher.WithFieldOwner (migrateowner.go)
	backoff    ast.Expr     // a conflict loop's own backoff, for patcher.WithBackoff (migrateloopbackoff.go)

	patcherType string // the kind's patcher, for the reasons that name it (migratewhy.go)

	item    bool       // the object is a list's item, a cached copy: it moves only into Retry (migrateretry.go)
	copyOf  *types.Var // the base the object is a DeepCopy of (migratecopied.go): in Retry's mutate, its reads are the object's
	itemWhy string     // why it stays when it cannot
	retry   *retryPlan // the write's decision moved into Retry's mutate (migrateretry.go)
	via     *types.Var // the patcher the code makes itself, whose Flush and Retry renew the object (life.go)
}

// reads finds where the object's life starts for a write: the read (a
// Get, a copy of one) or the base the patcher is made at, and why there is
// none (migrate.go, migrateread.go, migratemerge.go, life.go).
type reads struct{ *migration }

// reads is the migration's finder of reads.
func (m *migration) reads() reads { return reads{m} }

// checks says whether the object's uses between the patcher's anchor and
// its Flush leave the patcher's write what the handwritten one wrote
// (migrateedit.go, migrateuses.go, params.go).
type checks struct{ *migration }

// checks is the migration's checker of uses.
func (m *migration) checks() checks { return checks{m} }

const migrateFixPrefix = "move the status write onto "

// prepareMigration recognises w's shape in the table (migrateshapes.go)
// and finds its anchor: a nil migration with "" for a shape -fix does not
// migrate, with a reason for a recognised one that cannot move. The
// generic helper, a fallback, is not asked: w's is no migration.
func prepareMigration(pass *analysis.Pass, files Files, opts Options, w *Write) (*migration, Patcher, string) {
	r := newRecognition(pass, files, opts, nil, w)
	r.recognise(false)
	if r.m == nil {
		return nil, Patcher{}, r.why
	}
	return r.m, r.p, ""
}

// newRecognition starts the recognition of w: r.m is its migration, the
// write's call where it sits, when w may be one (a movable Patch, Update
// or Apply of a kind with a patcher, called on the status writer), and
// nil otherwise, r.why saying why when a reason is known.
func newRecognition(pass *analysis.Pass, files Files, opts Options, ws []*Write, w *Write) *recognition {
	r := &recognition{pass: pass, files: files, opts: opts, ws: ws, w: w}
	if !w.Movable || (w.Verb != "Patch" && w.Verb != "Update" && w.Verb != "Apply") {
		return r
	}
	call, ok := files.Calls[w.Lparen]
	if !ok || !files.Checked(call.Pos()) {
		return r
	}
	if w.Patcher == nil {
		return r // the finding says to generate it
	}
	r.p = *w.Patcher
	m := &migration{site: site{place: place{calls: calls{pass: pass, insp: files.Inspector, aloneMoves: opts.aloneMoves, recvAssumed: moduleAssumed(opts)}, call: call}}, audit: opts.Audit, module: opts.Module, assumed: opts.Assumed, unsentOK: opts.NonStatusUnsent, patcherType: r.p.Type}
	cur, ok := m.cursor(call)
	if !ok {
		return r
	}
	m.path = pathOf(cur)
	m.file = m.path[len(m.path)-1].(*ast.File)
	client, ok := statusReceiver(call)
	if !ok {
		r.why = m.shapeWhy("the status writer is not called as c.Status()." + w.Verb + "(...)")
		return r
	}
	m.client = client
	r.m = m
	return r
}

// statusReceiver returns c of a call c.Status().Verb(...) or
// c.SubResource("status").Verb(...).
func statusReceiver(call *ast.CallExpr) (ast.Expr, bool) {
	sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	if !ok {
		return nil, false
	}
	st, ok := ast.Unparen(sel.X).(*ast.CallExpr)
	if !ok {
		return nil, false
	}
	ss, ok := ast.Unparen(st.Fun).(*ast.SelectorExpr)
	switch {
	case !ok:
		return nil, false
	case ss.Sel.Name == "Status" && len(st.Args) == 0:
		return ss.X, true
	case ss.Sel.Name == "SubResource" && len(st.Args) == 1:
		if lit, ok := ast.Unparen(st.Args[0]).(*ast.BasicLit); ok && lit.Value == `"status"` {
			return ss.X, true
		}
	}
	return nil, false
}

// findAnchor sets m.anchor for the write's shape, or returns why a
// recognised shape has none.
func (m reads) findAnchor(verb string) string {
	switch {
	case m.apply != nil:
		return "" // prepareApply found it
	case verb == "Update":
		why := m.findGet()
		if m.anchor == nil {
			def, _ := m.definition(m.obj)
			var check ast.Stmt
			if c := commaOKCheck(m); c != nil {
				// obj, ok := e.ObjectNew.(*Kind) or byKey[k]; if !ok
				// {...}: made after the check (originevent.go)
				def, check = c, c
			}
			if def != nil {
				if item := m.cachedItem(); item != "" || m.audit {
					if _, ok := m.listItem(); ok {
						// A list's item: its patcher made where it is
						// taken, its decision in Retry (migrateretry.go).
						m.anchor, m.keep, m.item, m.itemWhy, m.getCheck = def, true, true, item, check
						return ""
					}
				}
			}
		}
		return why
	}
	deepCopy := m.obj.Name() + ".DeepCopy()"
	patch := ast.Unparen(m.call.Args[2])
	if m.isClientMerge(patch) {
		return m.findGet()
	}
	if id, ok := patch.(*ast.Ident); m.ownPatchType(patch) != "" || ok && m.patchByCall(usedVar(m.pass, id)) != nil {
		return m.otherPatch(patch)
	}
	if id, ok := patch.(*ast.Ident); ok {
		// patch := client.MergeFrom(obj.DeepCopy())
		v, _ := m.pass.TypesInfo.Uses[id].(*types.Var)
		def, val := m.definition(v)
		if def == nil {
			return m.noBase(v, "patch", "client.MergeFrom("+deepCopy+")")
		}
		mf, ok := val.(*ast.CallExpr)
		if !ok || !m.isMergeFrom(mf) {
			return m.noBase(v, "patch", "client.MergeFrom("+deepCopy+")")
		}
		r := reusedPatch{m.migration, v}
		if m.uses(v) != 1 {
			// Reused by the other patches of the object (migratereuse.go).
			if why := r.why(); why != "" {
				return why
			}
		}
		if !m.isDeepCopyOfObj(mf.Args[0]) {
			if r.copiedBase(def, mf) {
				return ""
			}
			return m.noBase(v, "patch", "client.MergeFrom("+deepCopy+")")
		}
		if m.lateBase(def, v) || m.baseAtRead(def, v) {
			return ""
		}
		if why := m.cachedItem(); why != "" {
			m.item, m.itemWhy = true, why // into Retry, or stays (migrateretry.go)
		}
		m.anchor, m.baseVar = def, v
		return ""
	}
	mf, ok := patch.(*ast.CallExpr)
	if !ok || !m.isMergeFrom(mf) {
		return m.otherPatch(patch)
	}
	id, ok := ast.Unparen(mf.Args[0]).(*ast.Ident)
	if !ok {
		if m.isDeepCopyOfObj(mf.Args[0]) {
			// Taken at the write: an empty patch, the server's state
			// came back over the changes. The changes start at the read.
			if m.findGet(); m.anchor != nil {
				m.lateInline = true
				return ""
			}
			return m.shapeWhy("the base is taken at the write (client.MergeFrom(" + deepCopy + ") there is an empty patch), and " + m.obj.Name() + " is not read with Get in " + m.funcText() + " before it")
		}
		if why := copyBaseWhy(&m.place, m.obj, mf.Args[0]); why != "" {
			return m.shapeWhy(why) // base := obj of a value (migratevalue.go)
		}
		if why := addrBaseWhy(m.pass.TypesInfo, m.obj, mf.Args[0]); why != "" {
			return m.shapeWhy(why)
		}
		return m.shapeWhy("the base " + types.ExprString(mf.Args[0]) + " is not a variable")
	}
	v, _ := m.pass.TypesInfo.Uses[id].(*types.Var)
	def, val := m.definition(v)
	if def == nil || !m.isDeepCopyOfObj(val) {
		if (copiedObject{m.migration, v}).anchor() {
			if why := m.cachedItem(); why != "" {
				m.item, m.itemWhy = true, why // a copy of an element: into Retry, or stays
			}
			return "" // obj := base.DeepCopy() (migratecopied.go)
		}
		if why := setBaseWhy(&m.place, v, deepCopy); why != "" {
			return m.shapeWhy(why) // var base *Kind, then base = ... (migratesetbase.go)
		}
		return m.noBase(v, "base", deepCopy)
	}
	if m.lateBase(def, v) || m.baseAtRead(def, v) {
		return ""
	}
	if why := m.cachedItem(); why != "" {
		m.item, m.itemWhy = true, why
	}
	m.anchor, m.keep, m.baseVar = def, m.uses(v) != 1, v
	return ""
}

// findGet sets the anchor of an Update: the last statement before the
// write, in a block enclosing it, that reads the object with
// c.Get(ctx, key, obj) (alone, assigned, or as an if's init), or copies
// it from a read (migrateread.go).
func (m reads) findGet() string {
	return m.findGetBefore(m.call.Pos())
}

// findGetBefore is findGet for the statements that end before pos.
func (m reads) findGetBefore(pos token.Pos) string {
	for _, list := range m.enclosingLists() {
		var found, get, check ast.Stmt
		for i, s := range list {
			if s.End() > pos {
				break
			}
			if m.copyOfRead(list, i) {
				found, get, check = s, nil, nil
			} else if call, _, _, why := helperRead(m, s); call != nil && why == "" {
				// A helper's Get, the object handed back unchanged
				// (originhelper.go): made after the call and its if.
				found, get, check = s, nil, nil
				if as, ok := s.(*ast.AssignStmt); ok && i+1 < len(list) && list[i+1].End() <= pos && m.checksErr(list[i+1], as) {
					found, check = list[i+1], list[i+1]
				}
			} else if m.isGetStmt(s) {
				found, get, check = s, s, nil
				// err := c.Get(...) then if err != nil {...}: after the if.
				if as, ok := s.(*ast.AssignStmt); ok && i+1 < len(list) && list[i+1].End() <= pos && m.checksErr(list[i+1], as) {
					found, check = list[i+1], list[i+1]
				}
			}
		}
		if found != nil {
			m.anchor, m.keep, m.get, m.getCheck = found, true, get, check
			return ""
		}
	}
	return m.noGet()
}

func (m reads) isGetStmt(s ast.Stmt) bool {
	if is, ok := s.(*ast.IfStmt); ok && is.Init != nil {
		s = is.Init
	}
	var e ast.Expr
	switch s := s.(type) {
	case *ast.ExprStmt:
		e = s.X
		if get := assertedNoError(m.pass.TypesInfo, e); get != nil {
			e = get // g.Expect(c.Get(...)).To(Succeed()) (readasserted.go)
		}
	case *ast.AssignStmt:
		if len(s.Rhs) != 1 {
			return false
		}
		e = s.Rhs[0]
	default:
		return false
	}
	call, ok := ast.Unparen(e).(*ast.CallExpr)
	if !ok || len(call.Args) < 3 {
		return false
	}
	sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	if !ok || sel.Sel.Name != "Get" {
		return false
	}
	arg := ast.Unparen(call.Args[2])
	if u, ok := arg.(*ast.UnaryExpr); ok && u.Op == token.AND && (m.apply != nil || valueObj(m.obj)) {
		arg = ast.Unparen(u.X) // c.Get(ctx, key, &obj) of an apply's object (migrateapply.go), or of a value
	}
	id, ok := arg.(*ast.Ident)
	return ok && m.pass.TypesInfo.Uses[id] == m.obj
}

// isDeepCopyOfObj reports whether e is obj.DeepCopy().
func (m reads) isDeepCopyOfObj(e ast.Expr) bool {
	call, ok := ast.Unparen(e).(*ast.CallExpr)
	if !ok || len(call.Args) != 0 {
		return false
	}
	sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	if !ok || sel.Sel.Name != "DeepCopy" {
		return false
	}
	id, ok := ast.Unparen(sel.X).(*ast.Ident)
	return ok && m.pass.TypesInfo.Uses[id] == m.obj
}

// mergeShaped reports whether patch is a merge patch -fix moves:
// client.Merge, client.MergeFrom... of a base, or a variable defined as
// one in the function.
func (m reads) mergeShaped(patch ast.Expr) bool {
	patch = ast.Unparen(patch)
	if m.isClientMerge(patch) {
		return true
	}
	if id, ok := patch.(*ast.Ident); ok {
		v, _ := m.pass.TypesInfo.Uses[id].(*types.Var)
		if _, val := m.definition(v); val != nil {
			patch = ast.Unparen(val)
		} else {
			// Not seen: the options are the first thing said, unless
			// its type says it is a patch of its own (otherPatch).
			return m.ownPatchType(patch) == "" && m.patchByCall(v) == nil
		}
	}
	call, ok := patch.(*ast.CallExpr)
	return ok && m.isMergeFrom(call)
}
