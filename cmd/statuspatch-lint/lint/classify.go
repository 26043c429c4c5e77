package lint

import (
	"go/token"
	"go/types"

	"github.com/statuspatch/statuspatch/cmd/statuspatch-lint/internal/kube"
	"golang.org/x/tools/go/ssa"
)

// verdict is the audit verdict of a status write. Worse verdicts are
// larger: a write is as bad as its worst path.
type verdict int

const (
	optimistic verdict = iota
	unresolved
	blind
	empty // a merge patch whose base is taken after the changes (latebase.go)
)

func (v verdict) String() string {
	switch v {
	case optimistic:
		return "optimistic"
	case blind:
		return "blind"
	case empty:
		return "empty"
	default:
		return "unresolved"
	}
}

// result is a verdict with the reason for it.
type result struct {
	verdict verdict
	reason  string
}

// worst combines the results of several paths: empty if any path sends
// nothing, else blind if any path is blind, else unresolved if any is,
// else optimistic.
func worst(rs []result) result {
	if len(rs) == 0 {
		return result{unresolved, "patch value not traced"}
	}
	w := rs[0]
	for _, r := range rs[1:] {
		if r.verdict > w.verdict {
			w = r
		}
	}
	return w
}

// A classifier gives a status write its verdict (classify): a patch's
// source (classify.go, patchsource.go), an Update's resourceVersion
// (resourceversion.go), an apply's configuration (apply.go) and a
// generated patcher's write mode (patchermode.go). It follows values with
// the tracer it embeds, and owns what the package stores in client.Patch
// struct fields.
type classifier struct {
	*tracer
	// The values the package stores in client.Patch struct fields, and
	// the fields whose address escapes (see recordFieldStores).
	fieldVals    map[*types.Var][]ssa.Value
	fieldEscapes map[*types.Var]bool
	// The functions holding a status write (findWrites), for the late
	// base (latebase.go's writesStatus).
	writers map[*ssa.Function]bool
	// What a function of the package does to the resourceVersion of its
	// parameter: set, cleared (unread.go's helperRV).
	rvMemo map[*ssa.Parameter][2]bool
}

func newClassifier(t *tracer, funcs []*ssa.Function) *classifier {
	cl := &classifier{tracer: t, fieldVals: map[*types.Var][]ssa.Value{}, fieldEscapes: map[*types.Var]bool{}}
	for _, fn := range funcs {
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				cl.recordFieldStores(instr)
			}
		}
	}
	return cl
}

// classify gives a status write its audit verdict.
func classify(cl *classifier, w *write) result {
	switch {
	case w.generated:
		return cl.generatedResult(w)
	case w.via == viaMutate:
		return mutateResult(w)
	case w.verb == "Update":
		return cl.classifyUpdate(w)
	case w.verb == "Apply":
		return cl.classifyApply(w)
	case w.verb == "Patch" && len(w.args) >= 3:
		return cl.classifyPatch(w)
	default:
		return result{unresolved, w.verb + " on the status subresource"}
	}
}

// classifyPatch follows the patch argument to where it is made.
func (cl *classifier) classifyPatch(w *write) result {
	return cl.classifyPatchValue(w, w.args[2], 0)
}

// classifyPatchValue classifies a patch value by the leaves it comes from.
// depth counts the client.RawPatch data followed back to another patch.
func (cl *classifier) classifyPatchValue(w *write, patch ssa.Value, depth int) result {
	var rs []result
	for _, leaf := range cl.leaves(patch) {
		rs = append(rs, cl.classifyPatchLeaf(w, leaf, depth))
	}
	return worst(rs)
}

func (cl *classifier) classifyPatchLeaf(w *write, leaf ssa.Value, depth int) result {
	switch v := leaf.(type) {
	case *ssa.Call:
		fn := v.Common().StaticCallee()
		if fn == nil || !isClientFunc(fn) {
			if r, ok := cl.importedPatch(v.Common(), 0); ok {
				return r
			}
			return result{unresolved, "patch from " + describeCall(v.Common())}
		}
		name := fn.Name()
		if name == "MergeFrom" || name == "MergeFromWithOptions" || name == "StrategicMergeFrom" {
			lock := blind
			if name != "MergeFrom" {
				lock = cl.mergeOptions(name, v.Common().Args).verdict
			}
			if r, ok := cl.lateBase(w, v.Common(), lock); ok {
				return r
			}
		}
		switch name {
		case "MergeFrom":
			return result{blind, "client.MergeFrom without optimistic lock"}
		case "MergeFromWithOptions", "StrategicMergeFrom":
			r := cl.mergeOptions(name, v.Common().Args)
			if u, ok := cl.clearedLock(w); ok && r.verdict == optimistic {
				return u
			}
			return r
		case "RawPatch":
			return cl.rawPatch(w, v.Common().Args, depth)
		default:
			return result{unresolved, "client." + name}
		}
	case *ssa.UnOp:
		if g, ok := v.X.(*ssa.Global); ok && g.Pkg != nil && g.Pkg.Pkg.Path() == kube.ClientPkgPath {
			if g.Name() == "Apply" && w.instr != nil {
				return cl.applyPatch(w)
			}
			return result{unresolved, "client." + g.Name()}
		}
		if f := fieldOf(v.X); f != nil && clientTypeName(f.Type()) == "Patch" {
			return cl.fieldPatch(w, f, depth)
		}
		return result{unresolved, loadedPatch(v)}
	case *ssa.Field:
		if f := fieldOf(v); f != nil && clientTypeName(f.Type()) == "Patch" {
			return cl.fieldPatch(w, f, depth)
		}
		return result{unresolved, "patch loaded from a field"}
	case *ssa.Extract:
		if call, ok := v.Tuple.(*ssa.Call); ok {
			if r, ok := cl.importedPatch(call.Common(), v.Index); ok {
				return r
			}
		}
		return result{unresolved, "patch from " + describeValue(leaf)}
	case *ssa.Const:
		return result{unresolved, "nil patch"}
	case *ssa.Parameter:
		return result{unresolved, "patch from parameter " + v.Name() + " of " + v.Parent().Name() + " (no call site in package)"}
	default:
		return result{unresolved, "patch from " + describeValue(leaf)}
	}
}

// loadedPatch says where a patch loaded by v comes from, as the code
// shows it: a package variable, a field, or a value built in the function
// (a composite literal of a type of the module, trust-manager's
// ssa_client.ApplyPatch{...}), whose Data the linter does not read.
func loadedPatch(v *ssa.UnOp) string {
	switch x := v.X.(type) {
	case *ssa.Global:
		return "patch loaded from the package variable " + x.Name()
	case *ssa.Alloc:
		pkg := x.Parent().Pkg.Pkg
		short := func(p *types.Package) string {
			if p == pkg {
				return ""
			}
			return p.Name()
		}
		return "patch of type " + types.TypeString(v.Type(), short) + " built in " + x.Parent().Name() + ", not one of controller-runtime's: its Data is not read"
	case *ssa.FieldAddr:
		return "patch loaded from a field"
	}
	return "patch loaded through a pointer"
}

// maxRawPatchDepth bounds how many client.RawPatch(..., p.Data(obj)) are
// followed back in a row: one is the real pattern, and each level may
// multiply the paths.
const maxRawPatchDepth = 4

// rawPatch classifies client.RawPatch(type, data) whose data is, on every
// path, the result of another patch's Data method (cluster-api's patch
// helper: client.MergeFrom(before).Data(after), compared with "{}" and sent
// raw): the raw patch is as optimistic as that patch, since a merge patch
// made with MergeFromWithOptimisticLock carries the resourceVersion. Data
// from anywhere else is unresolved.
func (cl *classifier) rawPatch(w *write, args []ssa.Value, depth int) result {
	unknown := result{unresolved, "client.RawPatch"}
	if len(args) != 2 || depth >= maxRawPatchDepth {
		return unknown
	}
	if applyPatchType(args[0]) {
		return cl.rawApply(w, args[1])
	}
	var rs []result
	for _, leaf := range cl.leaves(args[1]) {
		src := patchDataSource(leaf)
		if src == nil {
			return unknown
		}
		r := cl.classifyPatchValue(w, src, depth+1)
		rs = append(rs, result{r.verdict, "client.RawPatch of " + r.reason})
	}
	if len(rs) == 0 {
		return unknown
	}
	return worst(rs)
}

// patchDataSource returns p for a leaf p.Data(obj) (the []byte result)
// where p is a client.Patch, else nil.
func patchDataSource(leaf ssa.Value) ssa.Value {
	ext, ok := leaf.(*ssa.Extract)
	if !ok || ext.Index != 0 {
		return nil
	}
	call, ok := ext.Tuple.(*ssa.Call)
	if !ok {
		return nil
	}
	c := call.Common()
	if !c.IsInvoke() || c.Method.Name() != "Data" || clientTypeName(c.Value.Type()) != "Patch" {
		return nil
	}
	return c.Value
}

// mergeOptions classifies MergeFromWithOptions/StrategicMergeFrom by
// whether MergeFromWithOptimisticLock is among the variadic options.
func (cl *classifier) mergeOptions(name string, args []ssa.Value) result {
	if len(args) < 2 {
		return result{blind, "client." + name + " without optimistic lock"}
	}
	var rs []result
	for _, leaf := range cl.leaves(args[len(args)-1]) {
		switch lock := cl.sliceHasLock(leaf); lock {
		case lockYes:
			rs = append(rs, result{optimistic, "MergeFromWithOptimisticLock"})
		case lockNo:
			rs = append(rs, result{blind, "client." + name + " without MergeFromWithOptimisticLock"})
		default:
			rs = append(rs, result{unresolved, "client." + name + " options not traced"})
		}
	}
	return worst(rs)
}

type lockState int

const (
	lockNo lockState = iota
	lockYes
	lockUnknown
)

// sliceHasLock looks into a []MergeFromOption made by a slice literal or
// an implicit variadic argument.
func (cl *classifier) sliceHasLock(v ssa.Value) lockState {
	if c, ok := v.(*ssa.Const); ok && c.IsNil() {
		return lockNo
	}
	sl, ok := v.(*ssa.Slice)
	if !ok {
		return lockUnknown
	}
	arr, ok := sl.X.(*ssa.Alloc)
	if !ok || arr.Referrers() == nil {
		return lockUnknown
	}
	for _, r := range *arr.Referrers() {
		ia, ok := r.(*ssa.IndexAddr)
		if !ok || ia.Referrers() == nil {
			continue
		}
		for _, r2 := range *ia.Referrers() {
			st, ok := r2.(*ssa.Store)
			if !ok || st.Addr != ia {
				continue
			}
			for _, opt := range cl.leaves(st.Val) {
				if clientTypeName(opt.Type()) == "MergeFromWithOptimisticLock" {
					return lockYes
				}
			}
		}
	}
	return lockNo
}

func isClientFunc(fn *ssa.Function) bool {
	obj := fn.Object()
	return obj != nil && obj.Pkg() != nil && obj.Pkg().Path() == kube.ClientPkgPath
}

func describeCall(c *ssa.CallCommon) string {
	if fn := c.StaticCallee(); fn != nil {
		if obj := fn.Object(); obj != nil && obj.Pkg() != nil {
			return obj.Pkg().Name() + "." + obj.Name()
		}
		return fn.Name()
	}
	if c.IsInvoke() {
		return "method " + c.Method.Name()
	}
	return "a function value"
}

func describeValue(v ssa.Value) string {
	switch v := v.(type) {
	case *ssa.UnOp:
		if v.Op == token.MUL {
			if _, ok := v.X.(*ssa.FieldAddr); ok {
				return "a struct field"
			}
		}
	case *ssa.Extract:
		if c, ok := v.Tuple.(*ssa.Call); ok {
			return describeCall(c.Common())
		}
	case *ssa.FreeVar:
		return "captured variable " + v.Name()
	}
	return "value " + v.Name()
}
