package patcher

import (
	"encoding"
	"encoding/json"
	"reflect"
	"strings"
	"sync"
)

// A Patcher without a generated diff (patcher.New, or a kind the generator
// does not see) compares the status the same way, field by field, through
// reflection: each top-level field is compared with reflect.DeepEqual and
// only those that differ are marshalled and diffed. Before, such a write
// marshalled both whole statuses and diffed the two documents, which for a
// 100 KB status was four fifths of the write's CPU (docs/benchmarks.md,
// "The whole write cycle"). The patch is the same: it is built by the
// FieldDiff machinery the generated diff uses, under the same contract
// (docs/patcher.md, "The generated field-by-field diff"), and it falls back
// to the whole-status path in the same cases (a zero base, a null, a
// marshal error). A status type outside that contract (an embedded field,
// its own MarshalJSON or MarshalText, two fields with one JSON name) keeps
// the whole-status path.

// reflectField is one top-level status field encoding/json marshals.
type reflectField struct {
	index   int
	wrapper reflect.Type // wrapperType of the field
}

var reflectFieldPlans sync.Map // status field type -> []reflectField (nil: not eligible)

// reflectDiff compares the statuses base and cur (pointers to the status
// fields) field by field, like a generated FieldDiffFunc; false when a
// status pointer is nil.
func reflectDiff(d *FieldDiff, fields []reflectField, base, cur any) bool {
	if reflect.DeepEqual(base, cur) {
		return true // the common no-op, in one comparison
	}
	bv, cv := reflect.ValueOf(base).Elem(), reflect.ValueOf(cur).Elem()
	if bv.Kind() == reflect.Pointer {
		if bv.IsNil() || cv.IsNil() {
			return false
		}
		bv, cv = bv.Elem(), cv.Elem()
	}
	for _, f := range fields {
		b, c := bv.Field(f.index), cv.Field(f.index)
		if !reflect.DeepEqual(b.Addr().Interface(), c.Addr().Interface()) {
			fieldChanged(d, f.wrapper, b, c)
		}
	}
	return true
}

// reflectFieldsOf returns the fields of the status type t (the status
// field's type) to compare, or nil when t is not eligible.
func reflectFieldsOf(t reflect.Type) []reflectField {
	if fs, ok := reflectFieldPlans.Load(t); ok {
		return fs.([]reflectField)
	}
	fs := planReflectFields(t)
	reflectFieldPlans.Store(t, fs)
	return fs
}

var (
	jsonMarshalerType = reflect.TypeFor[json.Marshaler]()
	textMarshalerType = reflect.TypeFor[encoding.TextMarshaler]()
)

func planReflectFields(t reflect.Type) []reflectField {
	st := t
	if st.Kind() == reflect.Pointer {
		st = st.Elem()
	}
	if st.Kind() != reflect.Struct {
		return nil
	}
	for _, m := range []reflect.Type{st, reflect.PointerTo(st)} {
		if m.Implements(jsonMarshalerType) || m.Implements(textMarshalerType) {
			return nil
		}
	}
	fields := []reflectField{}
	names := map[string]bool{}
	for i := range st.NumField() {
		f := st.Field(i)
		if f.Anonymous {
			return nil
		}
		tag := f.Tag.Get("json")
		if !f.IsExported() || tag == "-" {
			continue
		}
		name, _, _ := strings.Cut(tag, ",")
		if name == "" {
			name = f.Name
		}
		if names[name] {
			return nil
		}
		names[name] = true
		fields = append(fields, reflectField{index: i, wrapper: wrapperType(f.Type, f.Name, string(f.Tag))})
	}
	return fields
}
