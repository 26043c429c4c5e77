package lint

import (
	"go/ast"
	"go/constant"
	"go/types"
	"strings"

	"github.com/statuspatch/statuspatch/cmd/statuspatch-lint/internal/kube"
	"golang.org/x/tools/go/ssa"
)

// Server-side apply: Apply(ctx, cfg) of an apply configuration, the
// deprecated Patch(ctx, obj, client.Apply), and a raw apply patch. The
// write carries a resourceVersion, and so conflicts instead of
// overwriting, only if the configuration (or object) has one.

// applyMode is what the findings of an apply without a resourceVersion
// suggest besides the lock: the generated patcher's apply mode.
const applyMode = "use the patcher's apply mode (patcher.WithWriteMode(patcher.WriteApply))"

// applyAdvice is the advice of a status apply whose configuration has no
// resourceVersion. applyFix names the object when it finds it.
func applyAdvice(kind string) string {
	return "; add .WithResourceVersion(obj.ResourceVersion) (obj: the " + kind +
		" the status was computed from), or " + applyMode
}

// applyChain is an apply configuration followed back through its builder
// calls (cfg.WithX(...) returns cfg) to where it is made.
type applyChain struct {
	values []ssa.Value     // the configuration at each step, root last
	root   ssa.Value       // a constructor call, an allocation, a parameter...
	rv     *ssa.CallCommon // a WithResourceVersion in the chain, if any
}

// applyChains returns the chains of every value cfg may come from.
func (cl *classifier) applyChains(cfg ssa.Value) []applyChain {
	var out []applyChain
	var walk func(v ssa.Value, ch applyChain, depth int)
	walk = func(v ssa.Value, ch applyChain, depth int) {
		for _, leaf := range cl.leaves(v) {
			c := applyChain{values: append(append([]ssa.Value(nil), ch.values...), leaf), rv: ch.rv}
			recv, name := builderCall(leaf)
			if recv == nil || depth >= kube.MaxDepth {
				c.root = cl.identity(leaf)
				out = append(out, c)
				continue
			}
			if name == "WithResourceVersion" && c.rv == nil {
				c.rv = leaf.(*ssa.Call).Common()
			}
			walk(recv, c, depth+1)
		}
	}
	walk(cfg, applyChain{}, 0)
	return out
}

// builderCall returns the receiver and name of a call cfg.WithX(...) of a
// builder method returning its receiver's type, else nil.
func builderCall(v ssa.Value) (ssa.Value, string) {
	call, ok := v.(*ssa.Call)
	if !ok || call.Common().IsInvoke() {
		return nil, ""
	}
	fn := call.Common().StaticCallee()
	if fn == nil || fn.Signature.Recv() == nil || !strings.HasPrefix(fn.Name(), "With") || len(call.Common().Args) == 0 {
		return nil, ""
	}
	recv := call.Common().Args[0]
	if !types.Identical(recv.Type(), call.Type()) {
		return nil, ""
	}
	return recv, fn.Name()
}

// classifyApply: an apply is optimistic when every configuration it may
// send has a resourceVersion (in its builder chain, or set on it before
// the write), blind when one is made by a generated constructor (or
// Extract<Kind>, or a composite literal) without one, unresolved when
// where it is made is not known.
func (cl *classifier) classifyApply(w *write) result {
	return cl.applyValue(w, w.args[1], w.kind.name)
}

func (cl *classifier) applyValue(w *write, cfg ssa.Value, kind string) result {
	var rs []result
	for _, ch := range cl.applyChains(cfg) {
		rs = append(rs, cl.classifyChain(w, ch, kind))
	}
	return worst(rs)
}

func (cl *classifier) classifyChain(w *write, ch applyChain, kind string) result {
	if call, ok := ch.root.(*ssa.Call); ok {
		if u, ok := fromUnstructured(call.Common()); ok {
			return cl.unstructuredApply(w, u)
		}
	}
	cleared := result{blind, "resourceVersion cleared in the apply configuration" + applyAdvice(kind)}
	if ch.rv != nil {
		if isEmptyString(ch.rv.Args[len(ch.rv.Args)-1]) {
			return cleared
		}
		return result{optimistic, "apply configuration WithResourceVersion"}
	}
	set, clear := false, false
	for _, v := range append(ch.values, cl.embeddedMeta(ch.root)...) {
		s, c := cl.configSets(w, v)
		set, clear = set || s, clear || c
	}
	switch {
	case clear:
		return cleared
	case set:
		return result{optimistic, "apply configuration sets resourceVersion"}
	}
	if made := cl.applyConstructor(ch.root); made != "" {
		return result{blind, "server-side apply of " + made + " without resourceVersion" + applyAdvice(kind)}
	}
	return result{unresolved, "apply configuration from " + describeApplyRoot(ch.root) + applyAdvice(kind)}
}

// configSets reports whether the resourceVersion of v is set by a
// WithResourceVersion call on it or a store to its field on every path to
// the write (the set dominates it), or cleared on some path, in the
// write's function; in a helper that made v, anywhere.
func (cl *classifier) configSets(w *write, v ssa.Value) (set, cleared bool) {
	fn := v.Parent()
	here := w.instr != nil && (fn == nil || fn == w.instr.Parent())
	if here {
		fn = w.instr.Parent()
	}
	for _, s := range cl.resourceVersionSets(fn, cl.identity(v)) {
		switch {
		case !here:
			set, cleared = set || !s.cleared, cleared || s.cleared
		case s.cleared:
			cleared = cleared || reaches(s.instr, w.instr)
		default:
			set = set || dominates(s.instr, w.instr)
		}
	}
	return set, cleared
}

// dominates reports whether instruction a runs before b on every path to b.
func dominates(a, b ssa.Instruction) bool {
	ab, bb := a.Block(), b.Block()
	if ab == nil || bb == nil {
		return false
	}
	if ab != bb {
		return ab.Dominates(bb)
	}
	for _, instr := range ab.Instrs {
		switch instr {
		case a:
			return true
		case b:
			return false
		}
	}
	return false
}

// embeddedMeta returns the values a composite literal stores in its
// embedded fields (&ac.WidgetApplyConfiguration{ObjectMetaApplyConfiguration: meta}),
// where the resourceVersion may be set instead.
func (cl *classifier) embeddedMeta(root ssa.Value) []ssa.Value {
	alloc, ok := root.(*ssa.Alloc)
	if !ok || alloc.Referrers() == nil {
		return nil
	}
	var out []ssa.Value
	for _, r := range *alloc.Referrers() {
		fa, ok := r.(*ssa.FieldAddr)
		if !ok || !embeddedField(fa) || fa.Referrers() == nil {
			continue
		}
		for _, r2 := range *fa.Referrers() {
			if st, ok := r2.(*ssa.Store); ok && st.Addr == fa {
				for _, ch := range cl.applyChains(st.Val) {
					out = append(out, ch.values...)
				}
			}
		}
	}
	return out
}

// applyConstructor names the call or literal that made a new apply
// configuration, which has no resourceVersion: a generated constructor
// (ac.Widget(name, ns)) or Extract<Kind>... function of the configuration's
// kind, or a composite literal; "" for anything else.
func (cl *classifier) applyConstructor(root ssa.Value) string {
	var call *ssa.CallCommon
	switch v := root.(type) {
	case *ssa.Alloc:
		if _, ok := kube.ApplyConfigKind(v.Type()); ok {
			return "a composite literal"
		}
		return ""
	case *ssa.Call:
		call = v.Common()
	case *ssa.Extract:
		if c, ok := v.Tuple.(*ssa.Call); ok && v.Index == 0 {
			call = c.Common()
		}
	}
	if call == nil {
		return ""
	}
	fn := call.StaticCallee()
	if fn == nil || fn.Signature.Recv() != nil || fn.Signature.Results().Len() == 0 {
		return ""
	}
	kind, ok := kube.ApplyConfigKind(fn.Signature.Results().At(0).Type())
	if !ok || (fn.Name() != kind && !strings.HasPrefix(fn.Name(), "Extract"+kind)) {
		return ""
	}
	return cl.callText(call) + "(...)"
}

// callText is the called function as the source spells it
// (appsv1apply.Application), else as describeCall names it.
func (cl *classifier) callText(c *ssa.CallCommon) string {
	if cl.pass != nil {
		for _, f := range cl.pass.Files {
			if f.FileStart > c.Pos() || c.Pos() > f.FileEnd {
				continue
			}
			var text string
			ast.Inspect(f, func(n ast.Node) bool {
				if call, ok := n.(*ast.CallExpr); ok && call.Lparen == c.Pos() {
					text = types.ExprString(call.Fun)
				}
				return text == ""
			})
			if text != "" {
				return text
			}
		}
	}
	return describeCall(c)
}

func describeApplyRoot(v ssa.Value) string {
	switch v := v.(type) {
	case *ssa.Parameter:
		return "parameter " + v.Name() + " of " + v.Parent().Name() + " (no call site in package)"
	case *ssa.Call:
		return describeCall(v.Common())
	}
	return describeValue(v)
}

// fromUnstructured returns u for a call client.ApplyConfigurationFromUnstructured(u).
func fromUnstructured(c *ssa.CallCommon) (ssa.Value, bool) {
	fn := c.StaticCallee()
	if fn == nil || !isClientFunc(fn) || fn.Name() != "ApplyConfigurationFromUnstructured" || len(c.Args) != 1 {
		return nil, false
	}
	return c.Args[0], true
}

// unstructuredApply classifies Apply(ctx, client.ApplyConfigurationFromUnstructured(u)):
// the configuration wraps u, so u's resourceVersion is sent. Blind if the
// function clears it before the call (even if it sets it on another path)
// or if u is a new object without one; optimistic if the function sets
// it; otherwise unresolved (an object read from the API server has one).
func (cl *classifier) unstructuredApply(w *write, u ssa.Value) result {
	obj := cl.identity(u)
	set, cleared := cl.resourceVersionBefore(w, obj)
	if cleared {
		return result{blind, "resourceVersion cleared before apply"}
	}
	if set {
		return result{optimistic, "apply configuration sets resourceVersion"}
	}
	if a, fresh := obj.(*ssa.Alloc); fresh && !cl.givenRV(w, a) {
		return result{blind, "server-side apply of a new unstructured object without resourceVersion"}
	}
	return result{unresolved, "client.ApplyConfigurationFromUnstructured: object's resourceVersion unknown"}
}

// applyPatch classifies Patch(ctx, obj, client.Apply): optimistic if the
// object's resourceVersion is set in the function, blind for a fresh
// object without one, unresolved otherwise.
func (cl *classifier) applyPatch(w *write) result {
	obj := cl.identity(w.args[1])
	if set, _ := cl.resourceVersionBefore(w, obj); set {
		return result{optimistic, "client.Apply of an object with resourceVersion set"}
	}
	advice := "; set it before the patch, or " + applyMode
	if a, fresh := obj.(*ssa.Alloc); fresh && !cl.givenRV(w, a) {
		return result{blind, "client.Apply of a new object without resourceVersion" + advice}
	}
	return result{unresolved, "client.Apply: object's resourceVersion unknown" + advice}
}

// applyPatchType reports whether v is the constant types.ApplyPatchType.
func applyPatchType(v ssa.Value) bool {
	c, ok := v.(*ssa.Const)
	return ok && c.Value != nil && c.Value.Kind() == constant.String &&
		constant.StringVal(c.Value) == "application/apply-patch+yaml"
}

// rawApply classifies client.RawPatch(types.ApplyPatchType, data): data
// made by json.Marshal(cfg) of an apply configuration is as optimistic as
// applying cfg; any other body is unresolved.
func (cl *classifier) rawApply(w *write, data ssa.Value) result {
	const raw = "client.RawPatch(types.ApplyPatchType)"
	unknown := result{unresolved, raw + ": apply body not traced; send the resourceVersion in it, or " + applyMode}
	var rs []result
	for _, leaf := range cl.leaves(data) {
		ext, ok := leaf.(*ssa.Extract)
		if !ok || ext.Index != 0 {
			return unknown
		}
		call, ok := ext.Tuple.(*ssa.Call)
		if !ok {
			return unknown
		}
		fn := call.Common().StaticCallee()
		if fn == nil || fn.Pkg == nil || fn.Pkg.Pkg.Path() != "encoding/json" || fn.Name() != "Marshal" || len(call.Common().Args) != 1 {
			return unknown
		}
		kind := w.kind.name
		if kind == "" {
			kind = "object"
		}
		r := cl.applyValue(w, call.Common().Args[0], kind)
		rs = append(rs, result{r.verdict, raw + " of " + r.reason})
	}
	if len(rs) == 0 {
		return unknown
	}
	return worst(rs)
}
