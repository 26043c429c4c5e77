package migrate

import "go/ast"

// A call through a function value between a patcher's read and a re-read
// (kubebuilder's CronJob tutorial: getNextSchedule := func(cronJob
// *batchv1.CronJob, now time.Time) ..., defined in Reconcile and called
// with &cronJob before the re-Get of its schedule-error branch). Each
// function the value may be (refsfuncvalue.go's funcValues: a literal, a
// function or method of the package, a local set once from either) is
// judged by checks' checkValues: each changes at most the argument's
// status and keeps it nowhere (a literal writing the status it is given
// fails it). Until then the re-read kept a patcher of its own, and so did
// every re-read after it, their patchers out of scope of one another.

// valueHandedWhy is rereadHandedWhy's reason for the argument arg of call,
// a call through a function value, arg the expression passing the object:
// known is false when call is no function value funcValues resolves.
func valueHandedWhy(g *migration, call *ast.CallExpr, arg ast.Expr) (why string, known bool) {
	_, why, isValue := funcVals(g.refs()).funcValues(call)
	switch {
	case !isValue:
		return "", false
	case why != "":
		return ", a function value whose values are not all known: " + why, true
	}
	if ok, why := g.checks().checkValues(call, arg, 0); !ok {
		if why == "" {
			why = "its body may change more than its status or keep it"
		}
		return ", a function value: " + why, true
	}
	return "", true
}
