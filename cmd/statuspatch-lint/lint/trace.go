package lint

import (
	"go/token"
	"go/types"
	"slices"

	"github.com/statuspatch/statuspatch/cmd/statuspatch-lint/internal/kube"
	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ssa"
)

// tracer follows SSA values back to where they are made, within one
// package: through φ-nodes, interface conversions, captured variables,
// parameters (via the package's static call sites) and the results of the
// package's own functions.
type tracer struct {
	pkg      *types.Package // the package under analysis
	pass     *analysis.Pass // for the facts of other packages; nil in a test without one
	callers  map[*ssa.Function][]*ssa.CallCommon
	closures map[*ssa.Function][]*ssa.MakeClosure
	// The values the package's functions store in its package-level
	// variables (see globalStores).
	globals map[*ssa.Global][]ssa.Value
}

func newTracer(pass *analysis.Pass, funcs []*ssa.Function) *tracer {
	t := &tracer{
		pkg: pass.Pkg, pass: pass,
		callers: map[*ssa.Function][]*ssa.CallCommon{}, closures: map[*ssa.Function][]*ssa.MakeClosure{},
		globals: map[*ssa.Global][]ssa.Value{},
	}
	for _, fn := range funcs {
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				switch instr := instr.(type) {
				case ssa.CallInstruction:
					if callee := instr.Common().StaticCallee(); callee != nil {
						t.callers[callee] = append(t.callers[callee], instr.Common())
					}
				case *ssa.MakeClosure:
					if fn, ok := instr.Fn.(*ssa.Function); ok {
						t.closures[fn] = append(t.closures[fn], instr)
					}
				case *ssa.Store:
					if g, ok := instr.Addr.(*ssa.Global); ok {
						t.globals[g] = append(t.globals[g], instr.Val)
					}
				}
			}
		}
	}
	return t
}

// leaves returns the values v may come from. A leaf is a value the tracer
// does not see through: a call of a function outside the package, a
// constant, a global, an allocation, a parameter without call sites, a
// field load...
func (t *tracer) leaves(v ssa.Value) []ssa.Value {
	var out []ssa.Value
	seen := map[ssa.Value]bool{}
	var walk func(v ssa.Value, depth int)
	walk = func(v ssa.Value, depth int) {
		if v == nil || seen[v] {
			return
		}
		seen[v] = true
		if depth > kube.MaxDepth {
			out = append(out, v)
			return
		}
		next := func(w ssa.Value) { walk(w, depth+1) }
		switch v := v.(type) {
		case *ssa.Phi:
			for _, e := range v.Edges {
				next(e)
			}
		case *ssa.MakeInterface:
			next(v.X)
		case *ssa.ChangeInterface:
			next(v.X)
		case *ssa.ChangeType:
			next(v.X)
		case *ssa.TypeAssert:
			if v.CommaOk {
				out = append(out, v)
			} else {
				next(v.X)
			}
		case *ssa.Extract:
			switch tup := v.Tuple.(type) {
			case *ssa.TypeAssert:
				next(tup.X)
			case *ssa.Call:
				if fn := localCallee(tup.Common()); fn != nil {
					for _, r := range returns(fn) {
						next(r.Results[v.Index])
					}
				} else {
					out = append(out, v)
				}
			default:
				out = append(out, v)
			}
		case *ssa.Call:
			if fn := localCallee(v.Common()); fn != nil && fn.Signature.Results().Len() == 1 {
				for _, r := range returns(fn) {
					next(r.Results[0])
				}
			} else {
				out = append(out, v)
			}
		case *ssa.UnOp:
			if v.Op != token.MUL {
				out = append(out, v)
				return
			}
			stored := t.stores(v.X)
			if len(stored) == 0 {
				out = append(out, v)
			}
			for _, s := range stored {
				next(s)
			}
		case *ssa.FreeVar:
			bs := t.bindings(v)
			if len(bs) == 0 {
				out = append(out, v)
			}
			for _, b := range bs {
				next(b)
			}
		case *ssa.Parameter:
			sites := t.paramArgs(v)
			if len(sites) == 0 {
				out = append(out, v)
			}
			for _, a := range sites {
				next(a)
			}
		default:
			out = append(out, v)
		}
	}
	walk(v, 0)
	return out
}

// localCallee returns the statically called function if its body is in
// the package being analyzed.
func localCallee(c *ssa.CallCommon) *ssa.Function {
	fn := c.StaticCallee()
	if fn == nil || fn.Blocks == nil || fn.Synthetic != "" {
		return nil
	}
	return fn
}

func returns(fn *ssa.Function) []*ssa.Return {
	var rs []*ssa.Return
	for _, b := range fn.Blocks {
		if r, ok := b.Instrs[len(b.Instrs)-1].(*ssa.Return); ok {
			rs = append(rs, r)
		}
	}
	return rs
}

// bindings maps a closure's free variable to the values bound to it.
func (t *tracer) bindings(fv *ssa.FreeVar) []ssa.Value {
	fn := fv.Parent()
	idx := slices.Index(fn.FreeVars, fv)
	var vs []ssa.Value
	for _, mc := range t.closures[fn] {
		if idx >= 0 && idx < len(mc.Bindings) {
			vs = append(vs, mc.Bindings[idx])
		}
	}
	return vs
}

// paramArgs returns the arguments passed for p at the static call sites
// of its function in the package.
func (t *tracer) paramArgs(p *ssa.Parameter) []ssa.Value {
	fn := p.Parent()
	idx := slices.Index(fn.Params, p)
	var vs []ssa.Value
	for _, c := range t.callers[fn] {
		if idx >= 0 && idx < len(c.Args) {
			vs = append(vs, c.Args[idx])
		}
	}
	return vs
}

// stores returns the values stored to a local variable's address, also
// through the free variables of closures that capture it.
func (t *tracer) stores(addr ssa.Value) []ssa.Value {
	var vals []ssa.Value
	for _, a := range t.aliases(addr) {
		refs := a.Referrers()
		if refs == nil {
			continue
		}
		for _, r := range *refs {
			if s, ok := r.(*ssa.Store); ok && s.Addr == a {
				vals = append(vals, s.Val)
			}
		}
	}
	return vals
}

// aliases returns the addresses naming the same variable as addr: the
// Alloc and the free variables bound to it. Anything but a local variable
// (a field, a global, an element) has no aliases.
func (t *tracer) aliases(addr ssa.Value) []ssa.Value {
	root := addr
	if fv, ok := addr.(*ssa.FreeVar); ok {
		root = t.freeVarRoot(fv, 0)
	}
	if _, ok := root.(*ssa.Alloc); !ok {
		return nil
	}
	out := []ssa.Value{root}
	for i := 0; i < len(out) && i < 64; i++ {
		refs := out[i].Referrers()
		if refs == nil {
			continue
		}
		for _, r := range *refs {
			mc, ok := r.(*ssa.MakeClosure)
			if !ok {
				continue
			}
			fn, ok := mc.Fn.(*ssa.Function)
			if !ok {
				continue
			}
			for j, b := range mc.Bindings {
				if b == out[i] && j < len(fn.FreeVars) {
					out = append(out, fn.FreeVars[j])
				}
			}
		}
	}
	return out
}

// freeVarRoot follows a free variable out through enclosing closures to
// the Alloc it captures, if there is exactly one.
func (t *tracer) freeVarRoot(fv *ssa.FreeVar, depth int) ssa.Value {
	bs := t.bindings(fv)
	if len(bs) != 1 || depth > kube.MaxDepth {
		return fv
	}
	if outer, ok := bs[0].(*ssa.FreeVar); ok {
		return t.freeVarRoot(outer, depth+1)
	}
	return bs[0]
}

// identity strips conversions and loads of local variables so that two
// uses of the same object compare equal.
func (t *tracer) identity(v ssa.Value) ssa.Value {
	for range kube.MaxDepth {
		switch x := v.(type) {
		case *ssa.MakeInterface:
			v = x.X
		case *ssa.ChangeInterface:
			v = x.X
		case *ssa.ChangeType:
			v = x.X
		case *ssa.FieldAddr:
			// &obj.ObjectMeta, the receiver of a promoted method.
			if !embeddedField(x) {
				return v
			}
			v = x.X
		case *ssa.UnOp:
			if x.Op != token.MUL {
				return v
			}
			if _, ok := x.X.(*ssa.FieldAddr); ok {
				return v
			}
			switch a := x.X.(type) {
			case *ssa.Alloc:
				return a
			case *ssa.FreeVar:
				return t.freeVarRoot(a, 0)
			}
			return v
		default:
			return v
		}
	}
	return v
}

// reaches reports whether instruction a may execute before instruction b
// in the same function.
func reaches(a, b ssa.Instruction) bool {
	ab, bb := a.Block(), b.Block()
	if ab == nil || bb == nil || ab.Parent() != bb.Parent() {
		return false
	}
	if ab == bb {
		for _, instr := range ab.Instrs {
			if instr == a {
				return true
			}
			if instr == b {
				break
			}
		}
	}
	seen := map[*ssa.BasicBlock]bool{}
	stack := append([]*ssa.BasicBlock(nil), ab.Succs...)
	for len(stack) > 0 {
		blk := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if blk == bb {
			return true
		}
		if seen[blk] {
			continue
		}
		seen[blk] = true
		stack = append(stack, blk.Succs...)
	}
	return false
}

// embeddedField reports whether fa addresses an embedded field.
func embeddedField(fa *ssa.FieldAddr) bool {
	p, ok := types.Unalias(fa.X.Type()).(*types.Pointer)
	if !ok {
		return false
	}
	s, ok := p.Elem().Underlying().(*types.Struct)
	return ok && fa.Field < s.NumFields() && s.Field(fa.Field).Embedded()
}
