package migrate

import (
	"go/ast"
	"go/constant"
	"go/types"
	"strings"
)

// typeOnlyArgs is the arguments of a formatting call (fmt.Errorf,
// Sprintf, Printf, Fprintf, log.Printf: a variadic function whose last
// fixed parameter is a constant format) that the format prints with %T
// only: the printer reads their dynamic type, calls none of their
// methods (lws's fmt.Errorf("%T is not a runtime.Object", owner)). A
// format with explicit argument indexes ([n]) or a * width names none.
func typeOnlyArgs(info *types.Info, fn *types.Func, call *ast.CallExpr) map[ast.Expr]bool {
	sig := fn.Signature()
	if !sig.Variadic() || sig.Params().Len() < 2 || !strings.HasSuffix(fn.Name(), "f") || call.Ellipsis.IsValid() {
		return nil
	}
	at := sig.Params().Len() - 2
	if at >= len(call.Args) {
		return nil
	}
	tv := info.Types[call.Args[at]]
	if tv.Value == nil || tv.Value.Kind() != constant.String {
		return nil
	}
	format := constant.StringVal(tv.Value)
	if strings.ContainsAny(format, "[*") {
		return nil
	}
	var verbs []rune
	for i := 0; i < len(format); i++ {
		if format[i] != '%' {
			continue
		}
		i++
		for i < len(format) && strings.IndexByte("+-# 0123456789.", format[i]) >= 0 {
			i++
		}
		if i < len(format) && format[i] != '%' {
			verbs = append(verbs, rune(format[i]))
		}
	}
	only := map[ast.Expr]bool{}
	for i, v := range verbs {
		if a := at + 1 + i; v == 'T' && a < len(call.Args) {
			only[call.Args[a]] = true
		}
	}
	return only
}
