package diff

import (
	"encoding"
	"encoding/json"
	"reflect"
	"strings"
	"sync"
)

// This file is the reflective fallback. A Patcher without a generated diff
// (patcher.New, or a kind the generator does not see) compares the status
// the same way, field by field, through reflection: each top-level field is
// compared as reflect.DeepEqual compares it (equalValues: strings, numbers
// and bools directly) and only those that differ are marshalled
// and diffed. Before, such a write marshalled both whole statuses and diffed
// the two documents, which for a 100 KB status was four fifths of the
// write's CPU (docs/benchmarks.md, "The whole write cycle"). The patch is
// the same: it is built by Fields, under the generated path's contract
// (docs/patcher.md, "The generated field-by-field diff"), and the caller
// falls back to the whole-status diff in the same cases (a zero base, a
// null, a marshal error). A status type outside that contract (an embedded
// field, its own MarshalJSON or MarshalText, two fields with one JSON name)
// has no Plan and keeps the whole-status diff.

// Plan lists the top-level status fields encoding/json marshals, to compare
// one by one. A nil Plan: the status type is not eligible.
type Plan []planField

// planField is one top-level status field encoding/json marshals.
type planField struct {
	index   int
	wrapper reflect.Type // WrapperType of the field
}

var plans sync.Map // status field type -> Plan (nil: not eligible)

// Reflect compares the statuses base and cur (pointers to the status
// fields) field by field along plan, like a generated function, recording
// the fields that differ; false when a status pointer is nil.
func (d *Fields) Reflect(plan Plan, base, cur any) bool {
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
	for _, f := range plan {
		b, c := bv.Field(f.index), cv.Field(f.index)
		if !equalValues(b, c) {
			d.Change(f.wrapper, b, c)
		}
	}
	return true
}

// PlanFor returns the plan of the status type t (the status field's type:
// a struct or a pointer to one), or nil when t is not eligible.
func PlanFor(t reflect.Type) Plan {
	if fs, ok := plans.Load(t); ok {
		return fs.(Plan)
	}
	fs := newPlan(t)
	plans.Store(t, fs)
	return fs
}

var (
	jsonMarshalerType = reflect.TypeFor[json.Marshaler]()
	textMarshalerType = reflect.TypeFor[encoding.TextMarshaler]()
)

func newPlan(t reflect.Type) Plan {
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
	fields := Plan{}
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
		fields = append(fields, planField{index: i, wrapper: WrapperType(f.Type, f.Name, string(f.Tag))})
	}
	return fields
}
