package generator

import (
	"go/ast"
	"sync"

	"sigs.k8s.io/controller-tools/pkg/loader"
)

// otherStatusFields holds the fields named Status in root packages that are
// not a kind's status field: a condition's `Status corev1.ConditionStatus`,
// say. CheckFilter does not follow them, so the package of their type (often
// k8s.io/api/core/v1, the largest API package) is not parsed and
// type-checked for a field the generator never reads.
var otherStatusFields sync.Map // *ast.Field -> struct{}

// skipOtherStatusFields records the fields named Status of root that are not
// the Status field of one of the candidate kinds.
func skipOtherStatusFields(root *loader.Package, cands []candidate) {
	kindStatus := make(map[*ast.Field]bool)
	for _, c := range cands {
		if st, ok := c.info.RawSpec.Type.(*ast.StructType); ok {
			for _, f := range st.Fields.List {
				if hasName(f, "Status") {
					kindStatus[f] = true
				}
			}
		}
	}
	root.NeedSyntax()
	for _, file := range root.Syntax {
		ast.Inspect(file, func(n ast.Node) bool {
			if f, ok := n.(*ast.Field); ok && hasName(f, "Status") && !kindStatus[f] {
				otherStatusFields.Store(f, struct{}{})
			}
			return true
		})
	}
}

func hasName(f *ast.Field, name string) bool {
	for _, id := range f.Names {
		if id.Name == name {
			return true
		}
	}
	return false
}
