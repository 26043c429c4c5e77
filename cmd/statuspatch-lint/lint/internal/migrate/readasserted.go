package migrate

import (
	"go/ast"
	"go/types"

	"golang.org/x/tools/go/types/typeutil"
)

// An asserted read is a statement that reads the object with Get and ends
// the function when the Get fails through a test assertion that does so,
// as test code and envtest suites read objects:
//
//	g.Expect(k8sClient.Get(ctx, key, &wl)).To(gomega.Succeed())
//	require.NoError(t, c.Get(ctx, key, obj))
//
// A failed gomega assertion ends the function (in a function given to
// Eventually, which takes a Gomega, the attempt; Ginkgo's Fail and
// NewWithT's t.Fatalf the test), as require's t.FailNow does: -fix
// makes the patcher after it as after
// if err := c.Get(...); err != nil { return err }. testify's assert,
// which goes on after a failure, is not in the table.
type assertion struct {
	pkg, name string // the function or method making the assertion
	method    bool   // a method (of gomega's Assertion, or require.Assertions)
	matcher   string // gomega's matcher that passes on a nil error; "" for require
	arg       int    // the asserted argument; -1: the argument of the receiver's call (Expect(get))
}

const (
	gomegaPath      = "github.com/onsi/gomega"
	gomegaTypesPath = "github.com/onsi/gomega/types"
	requirePath     = "github.com/stretchr/testify/require"
)

var assertions = []assertion{
	{gomegaTypesPath, "To", true, "Succeed", -1},
	{gomegaTypesPath, "Should", true, "Succeed", -1},
	{gomegaTypesPath, "NotTo", true, "HaveOccurred", -1},
	{gomegaTypesPath, "ToNot", true, "HaveOccurred", -1},
	{gomegaTypesPath, "ShouldNot", true, "HaveOccurred", -1},
	{requirePath, "NoError", false, "", 1},
	{requirePath, "NoError", true, "", 0},
}

// assertedNoError returns the expression e asserts to be a nil error
// through one of assertions, or nil when e is not such an assertion.
func assertedNoError(info *types.Info, e ast.Expr) ast.Expr {
	call, ok := ast.Unparen(e).(*ast.CallExpr)
	if !ok {
		return nil
	}
	fn, ok := typeutil.Callee(info, call).(*types.Func)
	if !ok || fn.Pkg() == nil {
		return nil
	}
	method := fn.Type().(*types.Signature).Recv() != nil
	for _, a := range assertions {
		if a.pkg != fn.Pkg().Path() || a.name != fn.Name() || a.method != method {
			continue
		}
		if a.arg >= 0 {
			if a.arg < len(call.Args) {
				return call.Args[a.arg]
			}
			return nil
		}
		if len(call.Args) != 1 || !callsFunc(info, call.Args[0], gomegaPath, a.matcher) {
			return nil
		}
		sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
		if !ok {
			return nil
		}
		expect, ok := ast.Unparen(sel.X).(*ast.CallExpr)
		if !ok || len(expect.Args) != 1 {
			return nil // Expect(v, extra...) asserts on the extra values too
		}
		return expect.Args[0]
	}
	return nil
}

// callsFunc reports whether e is a call of the package function pkg.name.
func callsFunc(info *types.Info, e ast.Expr, pkg, name string) bool {
	call, ok := ast.Unparen(e).(*ast.CallExpr)
	if !ok {
		return false
	}
	fn, ok := typeutil.Callee(info, call).(*types.Func)
	return ok && fn.Pkg() != nil && fn.Pkg().Path() == pkg && fn.Name() == name
}
