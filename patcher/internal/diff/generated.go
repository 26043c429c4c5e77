package diff

import (
	"bytes"
	"encoding/json"
	"reflect"
	"sync"

	jsonpatch "github.com/evanphx/json-patch/v5"
)

// This file is the generated path: statuspatch-gen emits, per kind, a
// function that compares the status of two objects one top-level field at a
// time and hands the fields that differ to the patcher's FieldChanged, which
// records them here. The patch is then made from those fields only, instead
// of both whole statuses: the cost of a write no longer grows with the
// unchanged part of the status. The patch is byte-identical to the one the
// whole-status diff (StatusMergePatch) computes; when it cannot be (a changed
// field's JSON holds null, the status pointer is nil, a field fails to
// marshal) the comparison declines and the whole-status diff decides.

// Fields collects the top-level status fields that differ between the base
// and the object, as JSON object members.
type Fields struct {
	base, cur []byte // `"name":value` members of the changed fields, comma-separated
	decline   bool   // the whole-status diff must decide (null, marshal error)
}

// Reset empties d for a new comparison, keeping its buffers.
func (d *Fields) Reset() {
	d.base, d.cur, d.decline = d.base[:0], d.cur[:0], false
}

// Declined reports whether d gave up: the whole-status diff must decide.
func (d *Fields) Declined() bool { return d.decline }

// Patch returns the status merge patch of the recorded fields. ok is false
// when d declined or the patch cannot be made (the whole-status diff then
// decides and reports it); changed is false when no field differs.
func (d *Fields) Patch() (patch []byte, changed, ok bool) {
	if d.decline {
		return nil, false, false
	}
	if len(d.base) == 0 && len(d.cur) == 0 {
		return nil, false, true
	}
	patch, err := jsonpatch.CreateMergePatch(object(d.base), object(d.cur))
	if err != nil {
		return nil, false, false
	}
	if string(patch) == "{}" {
		return nil, false, true
	}
	return patch, true, true
}

// Change records one top-level status field that may differ, given its
// wrapper type t (WrapperType) and its values in the base and the object:
// it marshals both exactly as encoding/json marshals them inside the status
// and keeps them when their JSON differs. When the object's JSON holds null
// or either value fails to marshal, d declines.
func (d *Fields) Change(t reflect.Type, base, cur reflect.Value) {
	if d.decline {
		return
	}
	b, err := member(t, base)
	if err != nil {
		d.decline = true
		return
	}
	c, err := member(t, cur)
	if err != nil {
		d.decline = true
		return
	}
	if bytes.Equal(b, c) {
		return
	}
	if bytes.Contains(c, []byte("null")) {
		// A JSON null in a merge patch deletes: the whole-status diff
		// decides how to send it.
		d.decline = true
		return
	}
	d.base = appendMember(d.base, b)
	d.cur = appendMember(d.cur, c)
}

func appendMember(dst, m []byte) []byte {
	if len(m) == 0 {
		return dst
	}
	if len(dst) > 0 {
		dst = append(dst, ',')
	}
	return append(dst, m...)
}

// member marshals v as the only field of a struct of type t and returns the
// object's member (`"name":value`), or nothing when the field is omitted.
func member(t reflect.Type, v reflect.Value) ([]byte, error) {
	w := reflect.New(t)
	w.Elem().Field(0).Set(v)
	b, err := json.Marshal(w.Interface())
	if err != nil {
		return nil, err
	}
	return b[1 : len(b)-1], nil
}

// Equal reports whether *a and *b are reflect.DeepEqual, a and b being
// pointers to values of one type. Strings, numbers and bools, the common
// case, are compared without DeepEqual's bookkeeping of visited pointers.
func Equal(a, b any) bool {
	va, vb := reflect.ValueOf(a).Elem(), reflect.ValueOf(b).Elem()
	if scalar(va.Kind()) {
		return va.Equal(vb)
	}
	return reflect.DeepEqual(a, b)
}

// equalValues is Equal of two addressable values of one type: for strings,
// numbers and bools it compares the values themselves. reflect.DeepEqual of
// their addresses gives the same answer (== on the values: a NaN equals
// nothing) but records the pointer in a map of visited pairs it allocates
// per call, which on a small status was most of the reflective diff's cost.
func equalValues(a, b reflect.Value) bool {
	if scalar(a.Kind()) {
		return a.Equal(b)
	}
	return reflect.DeepEqual(a.Addr().Interface(), b.Addr().Interface())
}

// scalar reports whether k is a string, number or bool kind, which
// reflect.DeepEqual compares with ==.
func scalar(k reflect.Kind) bool {
	switch k {
	case reflect.Bool, reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr,
		reflect.Float32, reflect.Float64, reflect.Complex64, reflect.Complex128, reflect.String:
		return true
	}
	return false
}

type wrapperKey struct {
	t         reflect.Type
	name, tag string
}

// wrappers caches the one-field struct types Change marshals through.
var wrappers sync.Map // wrapperKey -> reflect.Type

// WrapperType is struct{ <name> t `<tag>` }: marshalled, it is the member
// the field contributes to its status object, under encoding/json's own
// rules (omitempty, omitzero, string, Marshaler methods).
func WrapperType(t reflect.Type, name, tag string) reflect.Type {
	k := wrapperKey{t, name, tag}
	if w, ok := wrappers.Load(k); ok {
		return w.(reflect.Type)
	}
	w := reflect.StructOf([]reflect.StructField{{Name: name, Type: t, Tag: reflect.StructTag(tag)}})
	wrappers.Store(k, w)
	return w
}
