package generator

import (
	"go/ast"
	"sync"

	"sigs.k8s.io/controller-tools/pkg/loader"
)

// skipped holds the types of the type declarations of root packages that no
// kind reaches (a spec type, say, embedding k8s.io/api/core/v1 types):
// CheckFilter does not follow them, so the packages they reference are not
// parsed and type-checked for nothing the generator reads.
//
// The generator reads a kind's embedded fields, its Status field, and the
// status struct's embedded, Conditions and ObservedGeneration fields; the
// declarations those reach stay in. A root package itself is always
// type-checked in full.
var skipped sync.Map // ast.Node -> struct{}

// followedFields are the field names CheckFilter follows besides embedded
// fields and a kind's Status.
var followedFields = []string{"Conditions", "ObservedGeneration"}

// skipUnread records the nodes of root that CheckFilter must not follow.
func skipUnread(root *loader.Package, cands []candidate) {
	root.NeedSyntax()
	specs := make(map[string]*ast.TypeSpec)
	for _, file := range root.Syntax {
		ast.Inspect(file, func(n ast.Node) bool {
			if ts, ok := n.(*ast.TypeSpec); ok {
				specs[ts.Name.Name] = ts
			}
			return true
		})
	}
	kindStatus := make(map[*ast.Field]bool)
	read := make(map[*ast.TypeSpec]bool)
	var queue []*ast.TypeSpec
	reach := func(expr ast.Expr) {
		ast.Inspect(expr, func(n ast.Node) bool {
			if id, ok := n.(*ast.Ident); ok {
				if ts := specs[id.Name]; ts != nil && !read[ts] {
					read[ts] = true
					queue = append(queue, ts)
				}
			}
			return true
		})
	}
	for _, c := range cands {
		ts := c.info.RawSpec
		read[ts] = true
		queue = append(queue, ts)
		if st, ok := ts.Type.(*ast.StructType); ok {
			for _, f := range st.Fields.List {
				if hasName(f, "Status") {
					kindStatus[f] = true
					reach(f.Type)
				}
			}
		}
	}
	for len(queue) > 0 {
		ts := queue[0]
		queue = queue[1:]
		st, ok := ts.Type.(*ast.StructType)
		if !ok {
			reach(ts.Type)
			continue
		}
		for _, f := range st.Fields.List {
			if len(f.Names) == 0 || hasName(f, followedFields...) {
				reach(f.Type)
			}
		}
	}
	for _, ts := range specs {
		if !read[ts] {
			skipped.Store(ts.Type, struct{}{})
		}
	}
	for f := range kindStatus {
		kindStatusFields.Store(f, struct{}{})
	}
}

// kindStatusFields holds the Status fields of the kinds: the only fields
// named Status CheckFilter follows. Kinds are declared in root packages; in
// the packages a status type comes from, a field named Status (a condition's
// `Status corev1.ConditionStatus`) is nothing the generator reads.
var kindStatusFields sync.Map // *ast.Field -> struct{}

// followField reports whether CheckFilter follows a field: embedded fields,
// a kind's Status field, and Conditions and ObservedGeneration fields.
func followField(f *ast.Field) bool {
	if len(f.Names) == 0 || hasName(f, followedFields...) {
		return true
	}
	_, ok := kindStatusFields.Load(f)
	return ok
}

func hasName(f *ast.Field, names ...string) bool {
	for _, id := range f.Names {
		for _, n := range names {
			if id.Name == n {
				return true
			}
		}
	}
	return false
}
