package migrate

import (
	"fmt"
	"go/ast"
	"go/types"

	"golang.org/x/tools/go/analysis"
)

// The shapes of handwritten status write -fix moves are one ordered table
// (shapes): each entry names its shape, its recogniser and its planner. A
// new shape costs an entry here and its tests.

// A shape is one form of status write: recognise says whether a write is
// of it (ok), and then gives its plan (its planner, bound to what the
// recogniser found) or why it stays.
type shape struct {
	name      string
	fallback  bool // asked only when the write is no migration (recognise)
	recognise func(r *recognition) (plan planner, why string, ok bool)
}

// A planner makes the fix of a recognised write, or says why it stays.
type planner func(p Patcher, files Files, ws []*Write, opts Options) (*analysis.SuggestedFix, string)

// shapeOf is the entry of a shape: its recogniser finds the write's move,
// a T (ok: the write is of the shape; with a zero T it stays, for why),
// and its planner plans a T.
func shapeOf[T comparable](name string, recognise func(*recognition) (T, string, bool), plan func(T, Patcher, Files, []*Write, Options) (*analysis.SuggestedFix, string)) shape {
	return shape{name: name, recognise: func(r *recognition) (planner, string, bool) {
		t, why, ok := recognise(r)
		var zero T
		if !ok || t == zero {
			return nil, why, ok
		}
		return func(p Patcher, files Files, ws []*Write, opts Options) (*analysis.SuggestedFix, string) {
			return plan(t, p, files, ws, opts)
		}, "", true
	}}
}

// fallback marks s asked only when the write is no migration.
func fallback(s shape) shape {
	s.fallback = true
	return s
}

// shapes is the table, in the order the entries are asked; the order is
// part of the rules:
//   - the applies first, and the unstructured one before the others: an
//     Apply, or a Patch with client.Apply, of an unstructured object is
//     known by its object, and the apply configuration's and typed apply's
//     recognisers, which go by the verb and the option, would take it;
//   - a merge patch or an update of an object whose patcher the code
//     already makes in the write's function (lifepatcher.go), before the
//     shapes that would make a second one;
//   - the merge patches and updates after, sharing one preparation
//     (prepareMerge: options, object, anchor), and only when no apply
//     took the write (an apply in a conflict loop moves as an apply): a
//     helper's parameter (no anchor in the function, the callers make the
//     patcher) and one taking its own base of its parameter
//     (lifehelperbase.go: its callers' patcher, when one holds one) before
//     a conflict loop, whose write has its anchor in the loop's function;
//     the write in place last, taking every other migration;
//   - the generic helper, a fallback, only when no migration shape took
//     the write (prepareMigration returns nil): its object is a type
//     parameter or a client.Object, and its reason is said over the
//     migration's; so is a patch helper's (cluster-api's: a type holding
//     the base, whose Patch method takes a client.Object).
//
// It is a function, not a variable: the planners reach the table again
// (a group's other writes are recognised by it), which a variable's
// initialiser may not.
func shapes() []shape {
	return []shape{
		shapeOf("unstructured apply", recogniseUnstructuredApply, planApply),
		shapeOf("apply configuration", recogniseApply, planApply),
		shapeOf("typed apply", recogniseTypedApply, planApply),
		shapeOf("apply patch of bytes", recogniseBytesApply, planBytesApply),
		shapeOf("beside the code's patcher", recogniseCodeLife, (*codeLife).fix),
		shapeOf("helper's parameter", recogniseHelper, (*helperMove).helperFix),
		shapeOf("helper taking its own base", recogniseOwnBaseHelper, (*ownBaseHelper).fix),
		shapeOf("conflict loop", recogniseLoop, (*conflictLoop).fix),
		shapeOf("hand conflict loop", recogniseHandLoop, (*handLoop).fix),
		shapeOf("write in place", recogniseInPlace, planGroup),
		fallback(shapeOf("generic helper", recogniseKindHelper, (*kindHelper).fix)),
		fallback(shapeOf("generic helper taking its base", recogniseOwnBase, (*ownBase).fix)),
		fallback(shapeOf("patch helper type", recognisePatchHelper, (*patchHelper).fix)),
	}
}

// A recognition is one write as the table's entries see it.
type recognition struct {
	pass   *analysis.Pass
	files  Files
	opts   Options
	ws     []*Write // the package's status writes, w among them (nil in prepareMigration)
	w      *Write
	p      Patcher    // w's kind's patcher
	m      *migration // w's migration, completed by its shape's recogniser; nil when w is none
	why    string     // why w is no migration, when m is nil and a reason is known
	merged bool       // prepareMerge ran
}

// recognise asks the table's entries in order, the first that recognises
// the write deciding: its plan, or why it stays. A migration shape whose
// preparation fails leaves the write no migration (r.m nil): the migration
// shapes after it are not asked, the fallbacks are (with fallbacks), and
// the migration's reason stands unless one of them has its own.
func (r *recognition) recognise(fallbacks bool) (planner, string) {
	for _, s := range shapes() {
		if s.fallback && (!fallbacks || r.m != nil) || !s.fallback && r.m == nil {
			continue
		}
		plan, why, ok := s.recognise(r)
		switch {
		case plan != nil:
			return plan, ""
		case !ok:
		case s.fallback || r.m != nil:
			return nil, why
		default:
			r.why = why
		}
	}
	return nil, r.why
}

// recogniseUnstructuredApply recognises an apply of an unstructured
// object, by Apply or a Patch with client.Apply: onto apply mode
// (migrateapplyunstructured.go).
func recogniseUnstructuredApply(r *recognition) (*applyMove, string, bool) {
	if r.w.Verb != "Apply" && !appliedPatch(r.m, r.w) {
		return nil, "", false
	}
	why, ok := r.m.prepareUnstructuredApply(r.w.Kind, map[string]int{"Apply": 2, "Patch": 3}[r.w.Verb])
	if !ok {
		return nil, "", false
	}
	return r.applied(why)
}

// recogniseApply recognises an apply of an apply configuration: onto
// apply mode (migrateapply.go).
func recogniseApply(r *recognition) (*applyMove, string, bool) {
	if r.w.Verb != "Apply" {
		return nil, "", false
	}
	return r.applied(r.m.prepareApply(r.w.Kind))
}

// recogniseTypedApply recognises a Patch of a typed object with
// client.Apply: onto apply mode too (migratetypedapply.go).
func recogniseTypedApply(r *recognition) (*applyMove, string, bool) {
	if !appliedPatch(r.m, r.w) {
		return nil, "", false
	}
	return r.applied(r.m.prepareTypedApply(r.w.Kind))
}

// appliedPatch reports whether w is a Patch with client.Apply.
func appliedPatch(m *migration, w *Write) bool {
	return w.Verb == "Patch" && len(m.call.Args) > 2 && m.isClientVar(m.call.Args[2], "Apply")
}

// recogniseHelper recognises a write of a helper's parameter that the
// helper does not read: its callers make the patcher (migratehelper.go).
// It says why a merge or an update stays when its preparation fails.
func recogniseHelper(r *recognition) (*helperMove, string, bool) {
	m := r.prepareMerge()
	switch {
	case m == nil:
		return nil, r.why, true
	case m.helper == nil:
		return nil, "", false
	}
	return m.helper, "", true
}

// recogniseLoop recognises a write in a conflict loop's function: the
// loop becomes the patcher's Fetch and Retry (migrateloop.go).
func recogniseLoop(r *recognition) (*conflictLoop, string, bool) {
	l, why := loopOf(r.prepareMerge())
	return l, why, l != nil || why != ""
}

// recogniseHandLoop recognises a write in a conflict loop written by
// hand, a for retrying while the write's error is a conflict: the loop
// becomes a patcher's Retry (migratehandloop.go).
func recogniseHandLoop(r *recognition) (*handLoop, string, bool) {
	m := r.prepareMerge()
	if m == nil {
		return nil, "", false
	}
	h, why := handLoopOf(m)
	return h, why, h != nil || why != ""
}

// recogniseInPlace recognises a merge patch or an update whose base is
// taken in its function: the patcher is made there, with the other writes
// of its object (planGroup).
func recogniseInPlace(r *recognition) (*migration, string, bool) {
	return r.prepareMerge(), "", true
}

// applied completes the migration of an apply its recogniser prepared,
// which says why it stays (why).
func (r *recognition) applied(why string) (*applyMove, string, bool) {
	m := r.m
	if why != "" || m.anchor == nil && m.helper == nil {
		r.stay(why)
		return nil, why, true
	}
	if r.finish() == nil {
		return nil, r.why, true
	}
	return m.apply, "", true
}

// recogniseKindHelper recognises a write in a helper over objects of any
// kind (migrategeneric.go), or in a method over an interface of the
// module, which stays (migrateifacemethod.go).
func recogniseKindHelper(r *recognition) (*kindHelper, string, bool) {
	h, why := kindHelperOf(r.pass, r.files, r.opts, r.ws, r.w)
	if h == nil && why == "" {
		why = ifaceMethodWhy(r.pass, r.files, r.opts, r.w)
	}
	return h, why, h != nil || why != ""
}

// planApply moves an apply onto apply mode (migrateapply.go), or, in a
// helper whose parameter it names, into its callers' patchers
// (migrateapplyhelper.go).
func planApply(a *applyMove, p Patcher, files Files, ws []*Write, opts Options) (*analysis.SuggestedFix, string) {
	if a.helper != nil {
		return a.helper.helperFix(p, files, ws, opts)
	}
	if why := a.beside(files, ws); why != "" {
		return nil, why
	}
	if why := a.checkApplyUses(); why != "" {
		return nil, why
	}
	if why := a.planRetry(); why != "" {
		return nil, why // decided from the status (migrateapplyretry.go)
	}
	return a.applyEdits(p)
}

// prepareMerge completes the migration of a merge patch or an update, once
// for the shapes that read it: its options (a lone field owner goes to the
// patcher, migrateowner.go), its object, and the anchor its base is taken
// at, or the helper whose parameter it writes. It returns r.m, nil when
// the write stays (r.why).
func (r *recognition) prepareMerge() *migration {
	if r.merged {
		return r.m
	}
	r.merged = true
	m, w, call := r.m, r.w, r.m.call
	optionsLater := false
	switch from := map[string]int{"Patch": 3, "Update": 2}[w.Verb]; {
	case len(call.Args) > from && (w.Verb == "Update" || m.reads().mergeShaped(call.Args[2])):
		owner, why := optionsOf(&m.place, from).merge()
		if why != "" {
			return r.stay(m.shapeWhy(why))
		}
		m.owner = owner
	case len(call.Args) > 3:
		// Another patch (an apply patch of its own type, a raw patch):
		// its shape is what blocks the move (findAnchor says so), not its
		// options; were it moved, the options are checked after.
		optionsLater = true
	}
	if why := m.reads().findObj(w.Kind); m.obj == nil {
		return r.stay(why)
	}
	if why := unreadWhy(m, w); why != "" {
		return r.stay(m.shapeWhy(why)) // migrateunread.go
	}
	why := m.reads().findAnchor(w.Verb)
	slideToClient(m) // migrateclientslide.go
	if m.anchor == nil && m.helper == nil {
		// A helper writing its parameter: its callers make the patcher
		// (migratehelper.go).
		h := &helperMove{migration: m, decl: m.helperDecl()}
		if h.decl == nil && (w.Verb == "Update" || m.isClientMerge(call.Args[2])) {
			paramAlias(h) // m := obj, written under its alias (migrategroup.go)
			if h.decl == nil {
				scopeAlias(h) // m := s.Machine of a scope (migratescopefield.go)
			}
		}
		if h.decl == nil || libraryParam(m.reads()) || w.Verb != "Update" && !m.isClientMerge(call.Args[2]) && !h.baseIsParam() && !h.patchIsParam() {
			return r.stay(why)
		}
		m.helper = h
	}
	if optionsLater {
		owner, why := optionsOf(&m.place, 3).merge()
		if why != "" {
			return r.stay(m.shapeWhy(why))
		}
		m.owner = owner
	}
	return r.finish()
}

// finish checks what every migration checks last, its field owner and the
// client the patcher is made with, and returns r.m, nil when the write
// stays (r.why).
func (r *recognition) finish() *migration {
	m := r.m
	if why := r.checkOwner(); why != "" {
		return r.stay(why)
	}
	m.clientText = types.ExprString(m.client)
	if !m.isClient(m.client) {
		if !embedsClient(&m.calls, r.pass.TypesInfo.TypeOf(m.client)) {
			return r.stay(fmt.Sprintf("%s is not a client.Client to make the patcher with", m.clientText))
		}
		if why := ownMethod(m); why != "" {
			return r.stay(why)
		}
		m.clientText += ".Client" // kubebuilder's reconciler (embedsClient)
	}
	return m
}

// stay makes the write no migration, for why.
func (r *recognition) stay(why string) *migration {
	r.m, r.why = nil, why
	return nil
}

// ownMethod says why m's write stays when it goes through a method the
// type embedding the client declares itself (a reconciler's own
// Status(), adding a field owner or a counter): by types.Selection, its
// method set's path is one step, not through the embedded field. A
// patcher made with the embedded client would bypass it. "" when each
// method the write's chain calls on m.client is the client's.
func ownMethod(m *migration) string {
	for e := m.call.Fun; ; {
		switch x := ast.Unparen(e).(type) {
		case *ast.CallExpr:
			e = x.Fun
			continue
		case *ast.SelectorExpr:
			s := m.pass.TypesInfo.Selections[x]
			if s != nil && s.Kind() == types.MethodVal && len(s.Index()) == 1 && types.ExprString(x.X) == types.ExprString(m.client) {
				recv := s.Recv()
				if p, ok := recv.(*types.Pointer); ok {
					recv = p.Elem()
				}
				name := types.TypeString(recv, types.RelativeTo(m.pass.Pkg))
				fn := types.ExprString(x)
				return fmt.Sprintf("%s is %s's own method (declared at %s), not the %s of the client it embeds: the write goes through it, and a patcher made with %s.Client would not (write through %s.Client.%s() for -fix to move it, if what %s adds is not needed)",
					fn, name, m.where(s.Obj().Pos()), x.Sel.Name, m.clientText, m.clientText, x.Sel.Name, fn)
			}
			e = x.X
			continue
		}
		return ""
	}
}
