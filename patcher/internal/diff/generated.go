package diff

import (
	"bytes"
	"encoding/json"
	"reflect"
	"slices"
	"strings"
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
	// The changed fields as their patch members (`"name":value`, or
	// `"name":null` for a field the object omits), while every one is a
	// plain scalar (scalarMember): the patch is then these members in
	// name order, the bytes CreateMergePatch makes, without decoding both
	// sides into maps and marshalling the result (most of a small
	// Flush's diff). Any other change sets complex: CreateMergePatch
	// decides.
	members [][]byte
	complex bool
}

// Reset empties d for a new comparison, keeping its buffers.
func (d *Fields) Reset() {
	d.base, d.cur, d.decline = d.base[:0], d.cur[:0], false
	d.members, d.complex = d.members[:0], false
}

// Declined reports whether d gave up: the whole-status diff must decide.
func (d *Fields) Declined() bool { return d.decline }

// Empty reports whether d recorded no field: every field compared marshals
// alike in the base and the object.
func (d *Fields) Empty() bool { return len(d.base) == 0 && len(d.cur) == 0 }

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
	if patch, ok := d.scalarPatch(); ok {
		return patch, true, true
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
	if !d.complex {
		d.addMember(b, c)
	}
}

// addMember records the patch member of one changed field, b and c its
// members in the base and the object (either empty when omitted), or sets
// d.complex when the merge patch needs CreateMergePatch. With c a plain
// scalar the member is c itself: whatever the base held (another value,
// another type, an object), CreateMergePatch replaces it with c's value,
// decoded and marshalled again to the same bytes (scalarMember). With c
// omitted it is the name with null.
func (d *Fields) addMember(b, c []byte) {
	switch {
	case len(c) > 0 && scalarMember(c):
		d.members = append(d.members, c)
	case len(c) == 0 && len(b) > 0:
		name, ok := memberName(b)
		if !ok {
			d.complex = true
			return
		}
		// A fresh slice: the name is b's, which encoding/json allocated.
		d.members = append(d.members, append(name[:len(name):len(name)], ":null"...))
	default:
		d.complex = true
	}
}

// memberName is the quoted name of the member m (`"name":value`) when it
// holds no escape, so its bytes are the decoded name's.
func memberName(m []byte) ([]byte, bool) {
	if len(m) < 3 || m[0] != '"' {
		return nil, false
	}
	end := bytes.IndexByte(m[1:], '"') + 1
	if end <= 0 || bytes.IndexByte(m[:end], '\\') >= 0 || end+1 >= len(m) || m[end+1] != ':' {
		return nil, false
	}
	return m[:end+1], true
}

// scalarMember reports whether the member m (`"name":value`, as
// encoding/json marshals it) has a name without escapes and a value that
// CreateMergePatch decodes and marshals back to the same bytes: a number
// (kept as its literal, json.Number), true, false, or a string holding no
// escape (encoding/json escapes every character it would write
// differently: quotes, control characters, <, >, &, U+2028, U+2029 and
// invalid UTF-8).
func scalarMember(m []byte) bool {
	name, ok := memberName(m)
	if !ok {
		return false
	}
	v := m[len(name)+1:]
	switch {
	case len(v) == 0:
		return false
	case v[0] == '"':
		return len(v) >= 2 && v[len(v)-1] == '"' && bytes.IndexByte(v[1:len(v)-1], '"') < 0 && bytes.IndexByte(v, '\\') < 0
	case v[0] == '-' || v[0] >= '0' && v[0] <= '9':
		return !bytes.ContainsAny(v, "\"{}[],:")
	default:
		return string(v) == "true" || string(v) == "false"
	}
}

// scalarPatch is the merge patch of d.members, when every changed field
// gave one: an object of the members sorted by name, as CreateMergePatch
// marshals its map. ok is false otherwise, and for two members of one
// name (the decoded maps would keep one of them).
func (d *Fields) scalarPatch() (patch []byte, ok bool) {
	if d.complex || len(d.members) == 0 {
		return nil, false
	}
	ms := d.members
	if len(ms) > 1 {
		slices.SortFunc(ms, func(a, b []byte) int {
			an, _ := memberName(a)
			bn, _ := memberName(b)
			return strings.Compare(string(an[1:len(an)-1]), string(bn[1:len(bn)-1]))
		})
	}
	n := 1
	for i, m := range ms {
		if i > 0 {
			prev, _ := memberName(ms[i-1])
			if name, _ := memberName(m); bytes.Equal(prev, name) {
				return nil, false
			}
		}
		n += len(m) + 1
	}
	patch = make([]byte, 0, n)
	patch = append(patch, '{')
	for i, m := range ms {
		if i > 0 {
			patch = append(patch, ',')
		}
		patch = append(patch, m...)
	}
	return append(patch, '}'), true
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
