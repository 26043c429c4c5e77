package generator

import (
	"go/types"
)

const metav1Path = "k8s.io/apimachinery/pkg/apis/meta/v1"

// helpers records which optional methods a status supports.
type helpers struct {
	// hasConditions: the status has Conditions []metav1.Condition, directly
	// or promoted through embedded structs (not through embedded pointers).
	hasConditions bool
	// hasObservedGeneration: the status has ObservedGeneration int64, likewise.
	hasObservedGeneration bool
}

// helpersFor inspects a status struct type. Fields of other types (a
// project's own condition type, an int32 generation) get no helper.
func helpersFor(status types.Type, from *types.Package) helpers {
	return helpers{
		hasConditions:         fieldIs(status, from, "Conditions", isConditionSlice),
		hasObservedGeneration: fieldIs(status, from, "ObservedGeneration", isInt64),
	}
}

// fieldIs looks a field up with Go's selector rules (so promoted fields count)
// and checks its type. Paths through an embedded pointer are refused: taking
// the field's address could dereference nil.
func fieldIs(status types.Type, from *types.Package, name string, ok func(types.Type) bool) bool {
	obj, _, indirect := types.LookupFieldOrMethod(status, true, from, name)
	f, isVar := obj.(*types.Var)
	if !isVar || !f.IsField() || indirect {
		return false
	}
	return ok(f.Type())
}

// isConditionSlice matches []metav1.Condition by the type's package path,
// whatever the import alias.
func isConditionSlice(t types.Type) bool {
	s, ok := types.Unalias(t).(*types.Slice)
	if !ok {
		return false
	}
	n, ok := types.Unalias(s.Elem()).(*types.Named)
	if !ok || n.Obj().Pkg() == nil {
		return false
	}
	return n.Obj().Pkg().Path() == metav1Path && n.Obj().Name() == "Condition"
}

func isInt64(t types.Type) bool {
	return types.Identical(types.Unalias(t), types.Typ[types.Int64])
}
