package generator

import (
	"go/types"
	"reflect"
	"strings"
)

// diffField is one top-level status field in the generated field-by-field
// diff (templates/kind.go.tmpl, "fielddiff").
type diffField struct {
	Name string // the Go field name
	Tag  string // `json:"..."` as a Go raw string literal, or ""
	Type types.Type
}

// diffFieldData is a diffField as templates/kind.go.tmpl writes it.
type diffFieldData struct {
	Name, Tag string
	// Changed is a Go expression over b and c (the two statuses), true when
	// the field differs (reflect.DeepEqual is false); "" when the field is
	// compared by patcher.CompareField.
	Changed string
}

// diffFieldsData writes the comparison of each field with e.
func diffFieldsData(fields []diffField, e *equalFuncs) []diffFieldData {
	data := make([]diffFieldData, len(fields))
	for i, f := range fields {
		data[i] = diffFieldData{Name: f.Name, Tag: f.Tag}
		if isBasic(f.Type) || !e.opaque(f.Type) || strictlyComparable(f.Type) {
			data[i].Changed = e.changed(f.Type, "b."+f.Name, "c."+f.Name)
		}
	}
	return data
}

// statusDiffFields returns the fields of a status struct for the generated
// diff, and false when the struct's JSON is not the sum of its fields'
// (an embedded field, a MarshalJSON method, two fields with one JSON name):
// such kinds keep the reflection path, which marshals the whole status.
// Unexported fields are left out, as encoding/json leaves them out.
func statusDiffFields(status types.Type, from *types.Package) ([]diffField, bool) {
	st, ok := status.Underlying().(*types.Struct)
	if !ok || hasMarshaler(status, from) {
		return nil, false
	}
	var fields []diffField
	keys := make(map[string]bool)
	for f := range fieldsOf(st) {
		if f.Embedded() {
			return nil, false
		}
		if !f.Exported() {
			continue
		}
		jsonTag, hasTag := reflect.StructTag(st.Tag(fieldIndex(st, f))).Lookup("json")
		key, _, _ := strings.Cut(jsonTag, ",")
		if jsonTag == "-" {
			continue
		}
		if key == "" {
			key = f.Name()
		}
		if keys[key] || strings.ContainsAny(jsonTag, "`\"\\") {
			return nil, false
		}
		keys[key] = true
		df := diffField{Name: f.Name(), Type: f.Type()}
		if hasTag {
			df.Tag = "`json:\"" + jsonTag + "\"`"
		}
		fields = append(fields, df)
	}
	return fields, true
}

func fieldIndex(st *types.Struct, f *types.Var) int {
	for i := range st.NumFields() {
		if st.Field(i) == f {
			return i
		}
	}
	return -1
}

// hasMarshaler reports whether the status type or its pointer has a
// MarshalJSON or MarshalText method, which replace its fields' encoding.
func hasMarshaler(t types.Type, from *types.Package) bool {
	for _, name := range []string{"MarshalJSON", "MarshalText"} {
		if obj, _, _ := types.LookupFieldOrMethod(types.NewPointer(t), true, from, name); obj != nil {
			if _, isFunc := obj.(*types.Func); isFunc {
				return true
			}
		}
	}
	return false
}

// isBasic reports whether t is a string, number or bool type, named or not,
// whose values == compares exactly as their JSON would (floats aside: == on
// NaN is false, and a NaN does not marshal either way).
func isBasic(t types.Type) bool {
	b, ok := types.Unalias(t).Underlying().(*types.Basic)
	return ok && b.Info()&(types.IsBoolean|types.IsNumeric|types.IsString) != 0 && b.Info()&types.IsUntyped == 0
}
