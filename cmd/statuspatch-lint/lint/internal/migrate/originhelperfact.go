package migrate

import (
	"fmt"
	"go/ast"
	"go/types"
	"strings"
)

// A read in a helper of another package of the module:
// util.GetWidget(ctx, c, key) (the object handed back) or
// common.Load(ctx, c, key, w) (the object handed in). The helper's own
// package records, in its ParamsFact, each parameter (or its first
// result) its Get reads into, by the rule of a helper of the write's
// package (readInto: the Get runs first on every path, into that
// object, which it hands back unchanged), with the Get's file:line and
// why the object may not be the Get's. The caller reads the fact: the
// call is the object's read as a helper of its own package's is, or the
// write stays, naming the helper's line.

// HelperRead is ParamsFact.Reads of one parameter (by position, -1 for
// the first result): Get is its Get's file:line, Why why the object as a
// call returns may not be the Get's ("" when it is).
type HelperRead struct {
	Index int
	Get   string
	Why   string
}

// helperReads are decl's reads into its parameters and its first result.
func helperReads(m reads, decl *ast.FuncDecl) []HelperRead {
	var out []HelperRead
	if decl.Body == nil {
		return nil
	}
	for i := -1; i < len(paramVars(m.pass, decl)); i++ {
		if get, why := readInto(m, decl, i); get != nil {
			out = append(out, HelperRead{i, m.where(get.Pos()), why})
		}
	}
	return out
}

// readsText is ParamsFact.String's part for Reads: reads[2] for a read
// into parameter 2 that is the object's, reads[-1] for the result, and
// readsWhy[...] for those that are not.
func readsText(rs []HelperRead) []string {
	var yes, no []string
	for _, r := range rs {
		if r.Why == "" {
			yes = append(yes, fmt.Sprint(r.Index))
		} else {
			no = append(no, fmt.Sprint(r.Index))
		}
	}
	var out []string
	if len(yes) > 0 {
		out = append(out, "reads["+strings.Join(yes, " ")+"]")
	}
	if len(no) > 0 {
		out = append(out, "readsWhy["+strings.Join(no, " ")+"]")
	}
	return out
}

// importedRead is helperRead for a call of a function of another
// package: the call, its function, no Get, and the fact's why; nil when
// its fact records no read of m.obj. A method expression (its receiver
// an argument) and a variadic call are not followed.
func importedRead(m reads, call *ast.CallExpr, fn *types.Func, lhs []ast.Expr) (*ast.CallExpr, *types.Func, *ast.CallExpr, string) {
	r, ok := importedReadOf(m, call, fn, lhs)
	if !ok {
		return nil, nil, nil, ""
	}
	return call, fn, nil, r.Why
}

func importedReadOf(m reads, call *ast.CallExpr, fn *types.Func, lhs []ast.Expr) (HelperRead, bool) {
	if fn == nil || fn.Pkg() == nil || fn.Pkg() == m.pass.Pkg || call.Ellipsis.IsValid() {
		return HelperRead{}, false
	}
	if sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr); ok {
		if s := m.pass.TypesInfo.Selections[sel]; s != nil && s.Kind() == types.MethodExpr {
			return HelperRead{}, false
		}
	}
	var fact ParamsFact
	if !m.pass.ImportObjectFact(fn.Origin(), &fact) {
		return HelperRead{}, false
	}
	for _, r := range fact.Reads {
		switch {
		case r.Index >= 0 && r.Index < len(call.Args) && passesObj(m.pass.TypesInfo, m.obj, call.Args[r.Index]):
			return r, true
		case r.Index == -1 && len(lhs) > 0 && identOf(m.pass, lhs[0]) == m.obj:
			return r, true
		}
	}
	return HelperRead{}, false
}

// importedReadWhy is the reason a write stays when the last helper call
// before it, in a block enclosing it, is of another package whose Get
// may not leave the object as it read it; "" when there is none (noGet
// asks it after its cached item and parameter reasons).
func importedReadWhy(m reads) string {
	for _, list := range m.enclosingLists() {
		var call *ast.CallExpr
		var fn *types.Func
		var r HelperRead
		for _, s := range list {
			if s.End() > m.call.Pos() {
				break
			}
			if c, f, g, _ := helperRead(m, s); c != nil {
				call, fn = c, f
				if g == nil {
					r, _ = importedReadOf(m, c, f, assignedTo(s))
				}
			}
		}
		if call == nil {
			continue
		}
		if r.Why == "" || r.Get == "" {
			return ""
		}
		return helperReadWhy(m, fn, r.Get, call, r.Why)
	}
	return ""
}

// assignedTo is the left-hand side of s (or its if's init) when it is
// an assignment.
func assignedTo(s ast.Stmt) []ast.Expr {
	if is, ok := s.(*ast.IfStmt); ok && is.Init != nil {
		s = is.Init
	}
	if as, ok := s.(*ast.AssignStmt); ok {
		return as.Lhs
	}
	return nil
}
