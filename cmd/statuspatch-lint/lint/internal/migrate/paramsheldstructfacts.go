package migrate

import (
	"fmt"
	"go/ast"
	"go/types"
	"slices"
	"strings"
)

// HeldStruct is ParamsFact.HeldStructs of one parameter of an exported
// function or method: a struct of a concrete type (or a pointer to one)
// with a field whose type is an object's (CreateParams.DisaggregatedSet),
// and what the body does with the object it holds there, judged as the
// package's own callers judge it (structHeld.uses): Why, after "where",
// what changes it beyond its status ("" when nothing does); UnsentWhy the
// same when changes outside the status and the identity are left unsent
// (migrateunsent.go).
type HeldStruct struct {
	Index     int
	Field     string
	Why       string
	UnsentWhy string
}

// heldStructs is ParamsFact.HeldStructs of fd's parameter p (position i),
// for an exported fd: one entry for each field of p's struct type that
// holds an object of a concrete type.
func heldStructs(m *migration, fd *ast.FuncDecl, p *types.Var, i int) []HeldStruct {
	fn, _ := m.pass.TypesInfo.Defs[fd.Name].(*types.Func)
	if fn == nil || !fn.Exported() || fd.Body == nil || p == nil || p.Name() == "_" {
		return nil
	}
	var out []HeldStruct
	for _, f := range concreteObjectFields(p.Type()) {
		holding, returning, was := m.holding, m.returning, m.unsent
		m.holding, m.returning = nil, nil
		h := HeldStruct{Index: i, Field: f.Name()}
		m.unsent = false
		h.Why = structHeld{m.checks()}.uses(fd.Body, p, f, 1)
		if h.Why != "" {
			m.unsent = true
			h.UnsentWhy = structHeld{m.checks()}.uses(fd.Body, p, f, 1)
		}
		m.holding, m.returning, m.unsent = holding, returning, was
		out = append(out, h)
	}
	return out
}

// concreteObjectFields are the fields of the struct t (or *t) whose type
// may be an object and is no interface.
func concreteObjectFields(t types.Type) []*types.Var {
	if p, ok := types.Unalias(t).Underlying().(*types.Pointer); ok {
		t = p.Elem()
	}
	s, ok := t.Underlying().(*types.Struct)
	if !ok {
		return nil
	}
	var out []*types.Var
	for i := range s.NumFields() {
		if f := s.Field(i); !f.Embedded() && !types.IsInterface(f.Type()) && mayBeObject(f.Type()) {
			out = append(out, f)
		}
	}
	return out
}

// imported judges the holder given as argument arg to fn, a function of
// another package, by its ParamsFact.HeldStructs: "" when fn changes at
// most the status of what the holder holds in f (or, for a status
// subresource write, at most what it leaves unsent); else why, after
// "passed to fn at line, ".
func (s structHeld) imported(fn *types.Func, arg int, f *types.Var) string {
	var fact ParamsFact
	if s.pass.ImportObjectFact(fn.Origin(), &fact) {
		at := slices.IndexFunc(fact.HeldStructs, func(h HeldStruct) bool { return h.Index == arg && h.Field == f.Name() })
		if at >= 0 {
			h := fact.HeldStructs[at]
			why := h.Why
			if s.unsent {
				why = h.UnsentWhy
			}
			if why == "" {
				return ""
			}
			return "where " + strings.TrimPrefix(why, "where ")
		}
	}
	return "which -fix does not follow with what it holds" + s.unanalysed(fn)
}

// heldStructsText is HeldStructs for String: heldStruct0:Widget, with ?
// when it changes more, and ~ when only what is left unsent.
func heldStructsText(f *ParamsFact) []string {
	var parts []string
	for _, h := range f.HeldStructs {
		mark := ""
		switch {
		case h.Why != "" && h.UnsentWhy == "":
			mark = "~"
		case h.Why != "":
			mark = "?"
		}
		parts = append(parts, fmt.Sprintf("heldStruct%d:%s%s", h.Index, h.Field, mark))
	}
	return parts
}
