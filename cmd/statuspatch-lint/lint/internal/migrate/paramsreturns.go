package migrate

import (
	"fmt"
	"go/ast"
	"go/types"
	"slices"
	"strings"
)

// A function of another package that returns a reference into the object
// it is given, and otherwise changes at most its status, is followed
// where it is called as a function of the package is (refsreturned.go):
// its ParamsFact.Returns names the parameter and the results that may
// hold the reference, and the caller follows what the call gives there.
// lws's controllerutils.GetPVCApplyConfiguration(lws) returns
// configurations that hold &pvc.Spec.Resources.Requests of a range copy
// of the spec's templates; at s89j its fact said only why it was not
// StatusOnly ("whose address is taken at controller_utils.go:84"). A
// bare return of the reference, or a function that both returns it and
// keeps a holder of the object, has no Returns: its Why stands.

// Returned is ParamsFact.Returns of one parameter (by position): the
// results (by position) that may hold a reference into what it is given.
type Returned struct {
	Index   int
	Results []int
}

// returnsText is Returns in ParamsFact.String: returns[0:[0] 2:[1]].
func returnsText(rs []Returned) string {
	var parts []string
	for _, r := range rs {
		parts = append(parts, fmt.Sprintf("%d:%v", r.Index, r.Results))
	}
	return "returns[" + strings.Join(parts, " ") + "]"
}

// returnedParam adds the parameter i, whose uses m has checked and found
// to change at most the status but for what the function returns, to
// Returns; or, when a bare return gives it or the function also keeps a
// holder of it, says why in whys (for an exported function).
func returnedParam(rs []Returned, whys []ParamWhy, i int, m *migration, exported bool) ([]Returned, []ParamWhy) {
	why := ""
	switch {
	case slices.Contains(m.returning.results, -1):
		why = "a reference into it is given by a bare return, which -fix does not follow"
	case len(m.holding.out) > 0:
		why = "it returns a reference into it and keeps a holder of it"
	default:
		return append(rs, Returned{Index: i, Results: slices.Clone(m.returning.results)}), whys
	}
	if exported {
		whys = append(whys, ParamWhy{i, why})
	}
	return rs, whys
}

// importedReturns is the results of call, of fn of another package, that
// may hold a reference into its argument arg by fn's ParamsFact.Returns;
// ok is false when the fact has no such entry.
func (m checks) importedReturns(fn *types.Func, arg int) (results []int, ok bool) {
	var fact ParamsFact
	if !m.pass.ImportObjectFact(fn.Origin(), &fact) {
		return nil, false
	}
	for _, r := range fact.Returns {
		if r.Index == arg {
			return r.Results, true
		}
	}
	return nil, false
}

// checkReturned is checkFunc of fn, of another package, whose fact says
// it returns a reference into its argument arg: what the call returns,
// followed. ok is false when the fact says nothing of it.
func (m checks) checkReturned(call *ast.CallExpr, fn *types.Func, arg int) (ok bool, why string, known bool) {
	results, known := m.importedReturns(fn, arg)
	if !known {
		return false, "", false
	}
	name := fmt.Sprintf("its argument %d", arg)
	if params := fn.Signature().Params(); arg < params.Len() && params.At(arg).Name() != "" {
		name = params.At(arg).Name()
	}
	why = returns(m.refs()).returnedFrom(call, name, results)
	return why == "", why, true
}
