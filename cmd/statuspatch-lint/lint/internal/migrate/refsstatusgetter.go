package migrate

import (
	"go/types"

	"golang.org/x/tools/go/analysis"
)

// A method of a kind whose results are its status or a part of it, and
// that changes at most its status (ParamsFact.StatusRefs with Recv: a
// kubebuilder project's GetConditions() *[]metav1.Condition { return
// &c.Status.Conditions }, handed to meta.SetStatusCondition), gives a
// reference into the status: what is done through it changes at most the
// status, as through obj.Status itself (useProblem). Issue 80: before,
// the chain went on as "what obj.GetConditions() returns", and a change
// through it kept the write ("-fix does not tell which field of the
// object a method returns").

// statusGetter reports whether the method s selects returns only
// references into its receiver's status and changes at most the status,
// by its ParamsFact.
func statusGetter(pass *analysis.Pass, s *types.Selection) bool {
	fn, ok := s.Obj().(*types.Func)
	if !ok || s.Kind() != types.MethodVal {
		return false
	}
	var fact ParamsFact
	if !pass.ImportObjectFact(fn.Origin(), &fact) {
		return false
	}
	return fact.StatusRefs && (fact.Recv == "statusOnly" || fact.Recv == "reads")
}
