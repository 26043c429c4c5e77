package generator

import (
	"go/ast"
	"go/types"
	"strings"

	"sigs.k8s.io/controller-tools/pkg/loader"
	"sigs.k8s.io/controller-tools/pkg/markers"
)

// The write token: +statuspatch:writeToken on a string field of a kind's
// status makes the generated constructors pass patcher.WithWriteToken for
// it: every write the patcher sends carries a fresh unique token there,
// and a write whose answer is lost is settled by the token alone.
const writeTokenMarkerName = "statuspatch:writeToken"

var writeTokenMarker = markers.Must(markers.MakeDefinition(writeTokenMarkerName, markers.DescribesField, struct{}{}))

// findWriteTokens sets each kind's write token field (its Go name) from
// the +statuspatch:writeToken markers of root. A marker on a field that is
// not a top-level string field of a kind's status, or on two fields of one
// kind's status, is an error at the field.
func findWriteTokens(col *markers.Collector, root *loader.Package, ks []*kind) error {
	infos, err := statusTypes(col, root)
	if err != nil {
		return err
	}
	var errs errorList
	reported := map[*ast.Field]bool{} // a status type of two kinds is walked twice
	fail := func(f *ast.Field, format string, args ...any) {
		if reported[f] {
			return
		}
		reported[f] = true
		root.NeedTypesInfo() // sets root.Fset
		errs.add(errorAt(root.Fset, f.Pos(), format, args...))
	}
	used := map[*ast.Field]bool{}
	for _, k := range ks {
		var first *ast.Field
		walkStatus(root, infos, k.status, "status", func(f statusField) {
			if !marked(f.Markers) {
				return
			}
			used[f.RawField] = true
			switch {
			case strings.Count(f.path, ".") != 1:
				fail(f.RawField, "+%s on %s (%s): the token must be a top-level field of %s's status", writeTokenMarkerName, f.Name, f.path, k.name())
			case !isString(root, f.FieldInfo):
				fail(f.RawField, "+%s on %s, a %s: the token must be a string field", writeTokenMarkerName, f.Name, typeText(root, f.FieldInfo))
			case first != nil:
				fail(f.RawField, "+%s on %s and on %s (line %d): one token field per kind (%s)", writeTokenMarkerName, f.Name, k.writeToken,
					root.Fset.Position(first.Pos()).Line, k.name())
			default:
				first, k.writeToken = f.RawField, f.Name
			}
		})
	}
	for _, info := range infos {
		for _, f := range info.Fields {
			if marked(f.Markers) && !used[f.RawField] {
				fail(f.RawField, "+%s on %s.%s, which is not a field of a kind's status: mark a string field of the status of a kind with a status subresource",
					writeTokenMarkerName, info.Name, f.Name)
			}
		}
	}
	return errs.err()
}

// marked reports whether a field carries +statuspatch:writeToken.
func marked(vals markers.MarkerValues) bool {
	return vals.Get(writeTokenMarkerName) != nil
}

// isString reports whether f is declared string: from the type info when
// the package has it, else from the source.
func isString(root *loader.Package, f markers.FieldInfo) bool {
	if t := fieldType(root, f); t != nil {
		return types.Identical(t, types.Typ[types.String])
	}
	id, ok := f.RawField.Type.(*ast.Ident)
	return ok && id.Name == "string"
}

// typeText is f's type as written.
func typeText(root *loader.Package, f markers.FieldInfo) string {
	if t := fieldType(root, f); t != nil {
		return t.String()
	}
	return types.ExprString(f.RawField.Type)
}
