package lint

import (
	"go/constant"
	"go/token"
	"go/types"
	"regexp"
	"slices"
	"sort"
	"strings"

	"github.com/statuspatch/statuspatch/cmd/statuspatch-lint/internal/kube"
	"golang.org/x/tools/go/ssa"
)

// modeKind is what a generated patcher's options say about its write mode
// (patcher.WithWriteMode). Worse kinds are larger: a patcher that may come
// from several places is as bad as its worst.
type modeKind int

const (
	modeLocked     modeKind = iota // the default, WriteMergePatch or WriteApply: the resourceVersion is sent
	modeUnseen                     // made where the audit does not look: the default is assumed
	modeUnresolved                 // a mode the audit cannot tell
	modeNoLock                     // WriteApplyWithoutLock
)

// mode is a write mode as far as the audit can tell.
type mode struct {
	kind modeKind
	opt  string // the option that set it: WithWriteMode(WriteApplyWithoutLock), WithApplyWithoutLock()
	why  string // for modeUnseen, what was not seen; for modeUnresolved, the reason
}

// generatedResult is the verdict of a generated patcher's Flush/Retry.
func (cl *classifier) generatedResult(w *write) result {
	m := mode{kind: modeUnseen, why: "patcher not traced"}
	if w.recv != nil {
		m = cl.patcherValueMode(w.recv, 0)
	}
	switch m.kind {
	case modeNoLock:
		return result{blind, "generated patcher made with " + m.opt + ": server-side apply without the lock"}
	case modeUnresolved:
		return result{unresolved, m.why}
	case modeUnseen:
		return result{optimistic, "generated patcher (write mode not seen: " + m.why + ")" + cl.cachedItemNote(w)}
	default:
		return result{optimistic, "generated patcher" + cl.cachedItemNote(w)} // cacheditem.go
	}
}

// worse combines the modes of two paths.
func worse(a, b mode) mode {
	if b.kind > a.kind {
		return b
	}
	return a
}

// maxModeDepth bounds the hops through package-level variables and
// patcher.WithDefaults of another such client.
const maxModeDepth = 4

// patcherValueMode follows a generated patcher (or patcher.Patcher) value
// to its constructors and reads their options.
func (cl *classifier) patcherValueMode(v ssa.Value, depth int) mode {
	var m *mode
	for _, leaf := range cl.leaves(v) {
		lm := cl.patcherLeafMode(leaf, depth)
		if m == nil {
			m = &lm
		} else {
			*m = worse(*m, lm)
		}
	}
	if m == nil {
		return mode{kind: modeUnseen, why: "patcher not traced"}
	}
	return *m
}

func (cl *classifier) patcherLeafMode(leaf ssa.Value, depth int) mode {
	switch v := leaf.(type) {
	case *ssa.Call:
		if m, ok := cl.constructorMode(v.Common(), depth); ok {
			return m
		}
		// p.Patcher() of a generated patcher is the patcher it wraps.
		if fn := v.Common().StaticCallee(); fn != nil && fn.Name() == "Patcher" && fn.Signature.Recv() != nil && len(v.Common().Args) == 1 && depth < maxModeDepth {
			if n := kube.NamedOf(fn.Signature.Recv().Type()); n != nil && strings.HasSuffix(n.Obj().Name(), patcherSuffix) {
				return cl.patcherValueMode(v.Common().Args[0], depth+1)
			}
		}
		return mode{kind: modeUnseen, why: "patcher from " + describeCall(v.Common())}
	case *ssa.Extract:
		if call, ok := v.Tuple.(*ssa.Call); ok && v.Index == 0 {
			if m, ok := cl.constructorMode(call.Common(), depth); ok {
				return m
			}
		}
	case *ssa.UnOp:
		if g, ok := v.X.(*ssa.Global); ok && g.Pkg != nil && g.Pkg.Pkg == cl.pkg && depth < maxModeDepth {
			if stored := cl.globalStores(g); len(stored) > 0 {
				m := cl.patcherValueMode(stored[0], depth+1)
				for _, s := range stored[1:] {
					m = worse(m, cl.patcherValueMode(s, depth+1))
				}
				return m
			}
		}
	case *ssa.Alloc:
		return mode{kind: modeUnseen, why: "patcher from a composite literal"}
	case *ssa.Parameter:
		return mode{kind: modeUnseen, why: "patcher from parameter " + v.Name() + " of " + v.Parent().Name()}
	}
	return mode{kind: modeUnseen, why: "patcher from " + describeValue(leaf)}
}

// generatedConstructor matches New<Kind>StatusPatcher,
// Fetch<Kind>StatusPatcher and Fetch<Kind>StatusPatcherInto, as
// statuspatch-gen writes them.
var generatedConstructor = regexp.MustCompile(`^(New[A-Z]\w*` + patcherSuffix + `|Fetch[A-Z]\w*` + patcherSuffix + `(Into)?)$`)

// constructorMode reads the write mode of a patcher made by a generated
// constructor or by patcher.New/NewWithStatus/Fetch/FetchWithStatus: the
// client's defaults first, then the options, the last one winning. A
// generated constructor's own mode (apply-mode kinds pass
// WithWriteMode(WriteApply)) comes before the caller's options and locks.
func (cl *classifier) constructorMode(c *ssa.CallCommon, depth int) (mode, bool) {
	fn := c.StaticCallee()
	if fn == nil {
		return mode{}, false
	}
	obj := funcObject(fn)
	if obj == nil || obj.Pkg() == nil {
		return mode{}, false
	}
	switch name := obj.Name(); {
	case obj.Pkg().Path() == kube.PatcherPkgPath && (name == "New" || name == "NewWithStatus" || name == "Fetch" || name == "FetchWithStatus"):
	case generatedConstructor.MatchString(name) && returnsGeneratedPatcher(fn.Signature):
	default:
		return mode{}, false
	}
	m := mode{kind: modeUnseen, why: "the client's defaults"}
	params := fn.Signature.Params()
	for i := 0; i < params.Len() && i < len(c.Args); i++ {
		if clientTypeName(params.At(i).Type()) == "Client" {
			m = cl.clientMode(c.Args[i], depth)
			break
		}
	}
	if fn.Signature.Variadic() && len(c.Args) == params.Len() {
		m = cl.foldOptions(m, c.Args[len(c.Args)-1])
	}
	return m, true
}

// returnsGeneratedPatcher reports whether a constructor's first result is
// a <Kind>StatusPatcher.
func returnsGeneratedPatcher(sig *types.Signature) bool {
	if sig.Results().Len() == 0 {
		return false
	}
	n := kube.NamedOf(sig.Results().At(0).Type())
	return n != nil && strings.HasSuffix(n.Obj().Name(), patcherSuffix)
}

// clientMode is the write mode of the defaults a client carries: those of
// patcher.ForManager and patcher.WithDefaults when made in sight, none for
// a client that cannot be a *patcher.Client, else not seen.
func (cl *classifier) clientMode(c ssa.Value, depth int) mode {
	var m *mode
	for _, leaf := range cl.leaves(c) {
		lm := cl.clientLeafMode(leaf, depth)
		if m == nil {
			m = &lm
		} else {
			*m = worse(*m, lm)
		}
	}
	if m == nil {
		return mode{kind: modeUnseen, why: "the client's defaults"}
	}
	return *m
}

func (cl *classifier) clientLeafMode(leaf ssa.Value, depth int) mode {
	if call, ok := leaf.(*ssa.Call); ok && depth < maxModeDepth {
		if fn := call.Common().StaticCallee(); fn != nil && isPatcherFunc(fn) {
			args := call.Common().Args
			switch funcObject(fn).Name() {
			case "ForManager":
				if len(args) == 2 {
					return cl.foldOptions(mode{kind: modeLocked}, args[1])
				}
			case "WithDefaults":
				if len(args) == 2 {
					return cl.foldOptions(cl.clientMode(args[0], depth+1), args[1])
				}
			}
		}
	}
	if c, ok := leaf.(*ssa.Const); ok && c.IsNil() {
		return mode{kind: modeLocked}
	}
	if !types.IsInterface(leaf.Type()) && !isPatcherClient(leaf.Type()) {
		return mode{kind: modeLocked}
	}
	return mode{kind: modeUnseen, why: "the client's defaults"}
}

// foldOptions applies a []patcher.Option, in order, to the mode so far.
func (cl *classifier) foldOptions(cur mode, opts ssa.Value) mode {
	leaves := cl.leaves(opts)
	if len(leaves) != 1 {
		return then(cur, &mode{kind: modeUnseen, why: "options not seen"})
	}
	switch v := leaves[0].(type) {
	case *ssa.Const:
		if v.IsNil() {
			return cur
		}
	case *ssa.Slice:
		if elems, ok := sliceElems(v); ok {
			for _, e := range elems {
				cur = cl.applyOption(cur, e)
			}
			return cur
		}
	case *ssa.Call:
		// append(a, b...) of option slices.
		if b, ok := v.Common().Value.(*ssa.Builtin); ok && b.Name() == "append" && len(v.Common().Args) == 2 {
			return cl.foldOptions(cl.foldOptions(cur, v.Common().Args[0]), v.Common().Args[1])
		}
	}
	return then(cur, &mode{kind: modeUnseen, why: "options not seen"})
}

// applyOption applies one option on every path it may come from.
func (cl *classifier) applyOption(cur mode, opt ssa.Value) mode {
	var m *mode
	for _, leaf := range cl.leaves(opt) {
		lm := then(cur, cl.optionMode(leaf))
		if m == nil {
			m = &lm
		} else {
			*m = worse(*m, lm)
		}
	}
	if m == nil {
		return cur
	}
	return *m
}

// then is the mode after an option that sets e (nil: sets no mode). An
// option not seen after the no-lock mode may or may not undo it.
func then(cur mode, e *mode) mode {
	switch {
	case e == nil:
		return cur
	case e.kind != modeUnseen:
		return *e
	case cur.kind == modeNoLock:
		return mode{kind: modeUnresolved, why: "generated patcher made with " + cur.opt + ", then " + e.why}
	case cur.kind == modeUnresolved:
		return cur
	default:
		return *e
	}
}

// optionMode is the mode one option sets, nil for an option of the
// patcher package that sets none.
func (cl *classifier) optionMode(leaf ssa.Value) *mode {
	call, ok := leaf.(*ssa.Call)
	if !ok {
		return &mode{kind: modeUnseen, why: "option from " + describeValue(leaf)}
	}
	c := call.Common()
	if fn := c.StaticCallee(); fn != nil {
		if !isPatcherFunc(fn) {
			return &mode{kind: modeUnseen, why: "option from " + describeCall(c)}
		}
		if funcObject(fn).Name() != "WithWriteMode" || len(c.Args) != 1 {
			return nil
		}
		return writeModeConst(funcObject(fn).Pkg(), c.Args[0])
	}
	// The deprecated wrappers are package-level func variables.
	for _, v := range cl.leaves(c.Value) {
		u, ok := v.(*ssa.UnOp)
		if !ok {
			continue
		}
		if g, ok := u.X.(*ssa.Global); ok && g.Pkg != nil && g.Pkg.Pkg.Path() == kube.PatcherPkgPath {
			opt := g.Name() + "()"
			switch g.Name() {
			case "WithApplyWithoutLock":
				return &mode{kind: modeNoLock, opt: opt}
			case "WithApply", "WithMergePatch":
				return &mode{kind: modeLocked, opt: opt}
			}
		}
	}
	return &mode{kind: modeUnseen, why: "option from " + describeCall(c)}
}

// writeModeConst is the mode WithWriteMode(arg) sets.
func writeModeConst(pkg *types.Package, arg ssa.Value) *mode {
	c, ok := arg.(*ssa.Const)
	if !ok || c.Value == nil {
		return &mode{kind: modeUnresolved, why: "generated patcher made with WithWriteMode(a value that is not a constant)"}
	}
	for _, name := range []string{"WriteMergePatch", "WriteApply", "WriteApplyWithoutLock"} {
		k, ok := pkg.Scope().Lookup(name).(*types.Const)
		if !ok || !constant.Compare(k.Val(), token.EQL, c.Value) {
			continue
		}
		opt := "WithWriteMode(" + name + ")"
		if name == "WriteApplyWithoutLock" {
			return &mode{kind: modeNoLock, opt: opt}
		}
		return &mode{kind: modeLocked, opt: opt}
	}
	return &mode{kind: modeUnresolved, why: "generated patcher made with WithWriteMode(" + c.Value.String() + "), not a known mode"}
}

// sliceElems returns the elements stored into a slice literal (or an
// implicit variadic argument), in index order.
func sliceElems(sl *ssa.Slice) ([]ssa.Value, bool) {
	arr, ok := sl.X.(*ssa.Alloc)
	if !ok || arr.Referrers() == nil {
		return nil, false
	}
	type elem struct {
		i int64
		v ssa.Value
	}
	var es []elem
	for _, r := range *arr.Referrers() {
		ia, ok := r.(*ssa.IndexAddr)
		if !ok || ia.Referrers() == nil {
			continue
		}
		idx, ok := ia.Index.(*ssa.Const)
		if !ok {
			return nil, false
		}
		for _, r2 := range *ia.Referrers() {
			if st, ok := r2.(*ssa.Store); ok && st.Addr == ia {
				es = append(es, elem{idx.Int64(), st.Val})
			}
		}
	}
	sort.SliceStable(es, func(i, j int) bool { return es[i].i < es[j].i })
	out := make([]ssa.Value, len(es))
	for i, e := range es {
		out[i] = e.v
	}
	return out, true
}

// funcObject is fn's source-level function, that of its generic origin
// for an instance.
func funcObject(fn *ssa.Function) types.Object {
	if obj := fn.Object(); obj != nil {
		return obj
	}
	if o := fn.Origin(); o != nil {
		return o.Object()
	}
	return nil
}

func isPatcherFunc(fn *ssa.Function) bool {
	obj := funcObject(fn)
	return obj != nil && obj.Pkg() != nil && obj.Pkg().Path() == kube.PatcherPkgPath
}

// globalStores returns the values the package stores in a package-level
// variable: in its declaration (the package initializer) and in the
// package's functions.
func (t *tracer) globalStores(g *ssa.Global) []ssa.Value {
	vals := slices.Clone(t.globals[g])
	if init := g.Pkg.Func("init"); init != nil {
		for _, b := range init.Blocks {
			for _, instr := range b.Instrs {
				if st, ok := instr.(*ssa.Store); ok && st.Addr == g {
					vals = append(vals, st.Val)
				}
			}
		}
	}
	return vals
}

func isPatcherClient(t types.Type) bool {
	n := kube.NamedOf(t)
	return n != nil && n.Obj().Pkg() != nil && n.Obj().Pkg().Path() == kube.PatcherPkgPath && n.Obj().Name() == "Client"
}
