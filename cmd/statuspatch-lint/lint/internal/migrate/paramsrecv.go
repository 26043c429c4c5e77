package migrate

import (
	"go/ast"
	"go/types"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ast/inspector"
)

// What a method does to its pointer receiver (ParamsFact.Recv), exported
// in rounds, and what a call's selection of such a method does.

// recvFacts exports ParamsFact.Recv of the package's methods, in rounds:
// a method's use of its receiver may call a method declared after it
// (karpenter's NodePool.RuntimeValidate, then its template's
// validateLabels), whose fact the next round sees. A fact only allows
// more, so the rounds end.
// The last round's why of each other method is RecvWhy.
// A receiver the method's result holds (paramsheld.go) is in holds.
func recvFacts(pass *analysis.Pass, decls map[*types.Func]*ast.FuncDecl, insp *inspector.Inspector, readOnly bool) (recvs, whys map[*types.Func]string, holds map[*types.Func][]Held) {
	recvs, holds = map[*types.Func]string{}, map[*types.Func][]Held{}
	for round := 0; round < 4; round++ {
		whys = map[*types.Func]string{}
		changed := false
		for _, f := range pass.Files {
			m := &migration{site: site{place: place{calls: calls{pass: pass, decls: decls, insp: insp}, file: f}}}
			for _, d := range f.Decls {
				fd, ok := d.(*ast.FuncDecl)
				if !ok || fd.Body == nil || fd.Recv == nil {
					continue
				}
				fn, _ := pass.TypesInfo.Defs[fd.Name].(*types.Func)
				if fn == nil || recvs[fn] != "" {
					continue
				}
				m.holding = &holding{fd: fd}
				u, why := m.recvUse(fd, readOnly)
				if u == "statusOnly" && len(m.holding.out) > 0 {
					// Its result holds it: what is done with that is the caller's.
					holds[fn], u = heldOf(-1, m.holding.out), ""
					pass.ExportObjectFact(fn, &ParamsFact{Holds: holds[fn]})
				}
				m.holding = nil
				if u != "" {
					recvs[fn], changed = u, true
					pass.ExportObjectFact(fn, &ParamsFact{Recv: u})
				} else if why != "" {
					whys[fn] = why
					pass.ExportObjectFact(fn, &ParamsFact{RecvWhy: why})
				}
			}
		}
		if !changed {
			break
		}
	}
	return recvs, whys, holds
}

// recvUse is ParamsFact.Recv for the method fd: what its body does to
// its pointer receiver, by the rules of the object (checkUses) when it
// may be one, else of a reference into one (followLocal).
// Else why says what the body does that is neither ("" when not
// checked).
func (m *migration) recvUse(fd *ast.FuncDecl, readOnly bool) (use, why string) {
	if fd.Recv == nil || len(fd.Recv.List) != 1 || len(fd.Recv.List[0].Names) != 1 {
		return "", ""
	}
	p, _ := m.pass.TypesInfo.Defs[fd.Recv.List[0].Names[0]].(*types.Var)
	if p == nil {
		return "", ""
	}
	if _, ptr := types.Unalias(p.Type()).(*types.Pointer); !ptr {
		return "", ""
	}
	switch {
	case mayBeObject(p.Type()):
		if why = m.checks().checkUses(fd.Body, p, fd.Body.Pos(), fd.Body.End(), 1); why == "" {
			return "statusOnly", ""
		}
	case readOnly && declaresKind(m.pass.Pkg):
		// A type of an API package, which may be a part of an object
		// (karpenter's NodeClassReference), not a reconciler's.
		if why = m.refs().followLocal(p); why == "" {
			return "reads", ""
		}
	}
	return "", why
}

// declaresKind reports whether pkg declares an object kind: a struct
// type with a metav1.ObjectMeta field.
func declaresKind(pkg *types.Package) bool {
	scope := pkg.Scope()
	for _, name := range scope.Names() {
		if tn, ok := scope.Lookup(name).(*types.TypeName); ok && mayBeObject(types.NewPointer(tn.Type())) {
			return true
		}
	}
	return false
}

// methodUse is what the method s selects does to its receiver, by its
// ParamsFact (Recv), when its result holds no reference into it: "" if
// not known.
func (c *calls) methodUse(s *types.Selection) string {
	fn, ok := s.Obj().(*types.Func)
	if !ok {
		return ""
	}
	for r := range fn.Signature().Results().Variables() {
		// An error is a message made of copies (fmt.Errorf, multierr):
		// karpenter's NodePool.RuntimeValidate(ctx) error.
		if r.Type() != types.Universe.Lookup("error").Type() && holdsRefs(r.Type()) {
			return ""
		}
	}
	var fact ParamsFact
	if !c.pass.ImportObjectFact(fn.Origin(), &fact) {
		return ""
	}
	return fact.Recv
}
