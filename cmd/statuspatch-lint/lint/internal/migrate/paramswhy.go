package migrate

import (
	"fmt"
	"go/ast"
	"go/constant"
	"go/types"
	"strings"

	"golang.org/x/tools/go/analysis"

	"github.com/statuspatch/statuspatch/cmd/statuspatch-lint/internal/kube"
)

// What a kept reason says about a callee from its facts: the line its
// body changes the object at (ParamsFact.Why, RecvWhy), that -fix does
// not analyse its package, or the constant a patch type's Type returns
// (ParamsFact.Const).

// returnedConst is ParamsFact.Const of fd: the string constant a method
// without parameters returns as its one statement, "" if none.
func returnedConst(pass *analysis.Pass, fd *ast.FuncDecl) string {
	if fd.Recv == nil || fd.Type.Params.NumFields() != 0 || len(fd.Body.List) != 1 {
		return ""
	}
	ret, ok := fd.Body.List[0].(*ast.ReturnStmt)
	if !ok || len(ret.Results) != 1 {
		return ""
	}
	if v := pass.TypesInfo.Types[ret.Results[0]].Value; v != nil && v.Kind() == constant.String {
		return constant.StringVal(v)
	}
	return ""
}

// unanalysed says why a function or method of another package has no
// ParamsFact when -fix does not analyse its package's bodies (the
// analyzer exports facts for packages that reach the client, and for
// kube.HoldsObjectHelpers' that import metav1): resource.Quantity's
// methods, client-go's apply configurations, samber/lo; or, for a method
// of an interface, that the implementation run is not followed. "" when
// the package is analysed, or fn is of this one.
func (c *calls) unanalysed(fn *types.Func) string {
	if fn != nil && fn.Signature().Recv() != nil && types.IsInterface(fn.Signature().Recv().Type()) {
		// karpenter's consistency Check.Check over c.checks: which
		// implementations a field or value holds is not followed.
		return fmt.Sprintf(" (%s is a method of an interface: which implementation runs there is not followed)", fn.Name())
	}
	if fn == nil || fn.Pkg() == nil || fn.Pkg() == c.pass.Pkg || importedPkg(fn.Pkg(), kube.ClientPkgPath) != nil {
		return ""
	}
	name := fn.Name()
	if recv := fn.Signature().Recv(); recv != nil {
		if n := kube.NamedOf(recv.Type()); n != nil {
			name = n.Obj().Name() + "." + name
		}
	}
	path := fn.Pkg().Path()
	if w := applySetterWhy(fn); w != "" {
		return fmt.Sprintf(" (%s %s)", name, w) // readersapply.go
	}
	switch {
	case !kube.HoldsObjectHelpers(path):
		return fmt.Sprintf(" (%s is of %s, whose bodies -fix does not analyse)", name, path)
	case importedPkg(fn.Pkg(), kube.MetaPkgPath) == nil:
		return fmt.Sprintf(" (%s is of %s, which does not import metav1: -fix does not analyse its bodies)", name, path)
	}
	return ""
}

// factWhy is what fn's ParamsFact says its body does to its argument arg
// (-1: the receiver), for a reason: ", where ..." or "".
func (c *calls) factWhy(fn *types.Func, arg int) string {
	var fact ParamsFact
	if fn == nil || !c.pass.ImportObjectFact(fn.Origin(), &fact) {
		return ""
	}
	why := fact.RecvWhy
	if arg >= 0 {
		why = ""
		for _, w := range fact.Why {
			if w.Index == arg {
				why = w.Why
			}
		}
	}
	switch {
	case why == "":
		return ""
	case strings.HasPrefix(why, "where"):
		return ", " + why // a reference's (followLocal)
	}
	return ", where " + why
}

// argWhy is factWhy of fn's argument arg for the write being checked:
// for a status subresource write whose changes outside the status are
// left unsent (si.unsent), what the fact says still keeps it then
// (ParamsFact.UnsentWhy), when it has that.
func (si *site) argWhy(fn *types.Func, arg int) string {
	var fact ParamsFact
	if !si.unsent || fn == nil || !si.pass.ImportObjectFact(fn.Origin(), &fact) {
		return si.factWhy(fn, arg)
	}
	for _, w := range fact.UnsentWhy {
		if w.Index == arg && strings.HasPrefix(w.Why, "where") {
			return ", " + w.Why
		} else if w.Index == arg {
			return ", where " + w.Why
		}
	}
	return si.factWhy(fn, arg)
}
