package patcher

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"sync"

	jsonpatch "github.com/evanphx/json-patch/v5"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// This file is the runtime half of the generated field-by-field status diff.
// statuspatch-gen emits, per kind, a function that compares the status of two
// objects one top-level field at a time and hands the fields that differ to
// FieldChanged. Flush then marshals only those fields, instead of both whole
// statuses, and diffs only them: the cost of a write no longer grows with the
// unchanged part of the status. The patch is byte-identical to the one the
// reflection path (patcher.New) computes from the whole statuses; when it
// cannot be (a changed field's JSON holds null, the status pointer is nil, a
// field fails to marshal) the generated function or FieldDiff declines and
// the reflection path decides.

// FieldDiff collects the top-level status fields that differ between the
// base and the object, as JSON object members. A FieldDiffFunc fills it
// through CompareField and FieldChanged; it has no other use. Generated
// code is its only intended user: docs/patcher.md ("The generated
// field-by-field diff") states the contract a hand-written FieldDiffFunc
// must keep.
type FieldDiff struct {
	base, cur []byte // `"name":value` members of the changed fields, comma-separated
	decline   bool   // the reflection path must decide (null, marshal error)
}

// FieldDiffFunc compares the status of base and cur field by field: it
// calls FieldChanged (or CompareField) for every top-level status field
// encoding/json marshals that may differ, with the field's Go name and
// exact struct tag, and leaves both objects unchanged. It returns false
// when it cannot compare (a nil status pointer): the reflection path then
// decides. statuspatch-gen generates one per kind (diff<Kind>Status).
type FieldDiffFunc[T client.Object] func(d *FieldDiff, base, cur T) bool

// WithFieldDiff makes Flush compare the status with f instead of
// marshalling and diffing both whole statuses; the patch is the one the
// reflection path would send. Generated constructors pass it: a user never
// needs to. Flush still takes the reflection path when the base's status is
// zero, when f returns false, or when a changed field's JSON holds null or
// fails to marshal (docs/patcher.md lists why). An f for another object
// type than the Patcher's is an error matching ErrInvalidInput.
func WithFieldDiff[T client.Object](f FieldDiffFunc[T]) Option {
	return fieldDiffOption[T]{f}
}

type fieldDiffOption[T client.Object] struct{ f FieldDiffFunc[T] }

func (fieldDiffOption[T]) applyToPatcher(*options) {}

// fieldDiffState is a Patcher's generated diff (fn nil: none) and the
// patch it last made.
type fieldDiffState[T client.Object] struct {
	fn    FieldDiffFunc[T]
	refl  []reflectField // without fn: the fields compared through reflection (reflectdiff.go)
	diff  FieldDiff
	patch []byte // the status merge patch of the last fieldChange that found a change
}

// useFieldDiff picks the WithFieldDiff option out of opts. It is an error
// for one made for another object type.
func (p *Patcher[T]) useFieldDiff(opts []Option) error {
	for _, o := range opts {
		if o == nil {
			continue
		}
		if f, ok := o.(fieldDiffOption[T]); ok && f.f != nil {
			p.fieldDiff.fn = f.f
			continue
		}
		if _, ok := o.(interface{ fieldDiffFor() reflect.Type }); ok {
			return fmt.Errorf("statuspatch: WithFieldDiff for another type than %T: %w", p.obj, ErrInvalidInput)
		}
	}
	if p.fieldDiff.fn == nil {
		p.fieldDiff.refl = reflectFieldsOf(reflect.TypeOf(p.status(p.obj)).Elem())
	}
	return nil
}

// fieldDiffFor names the object type the option was made for.
func (fieldDiffOption[T]) fieldDiffFor() reflect.Type { return reflect.TypeFor[T]() }

// fieldChange is statusChange through the generated diff. ok is false when
// there is no generated diff or it declined: the caller takes the
// reflection path. With ok and changed, statusPatch returns the patch.
func (p *Patcher[T]) fieldChange() (changed, ok bool) {
	s := &p.fieldDiff
	// A zero base may be no status at all on the server: the first write
	// takes the reflection path, which sends every field.
	if (s.fn == nil && s.refl == nil) || p.baseStatusZero() {
		return false, false
	}
	s.patch = nil
	d := &s.diff
	d.base, d.cur, d.decline = d.base[:0], d.cur[:0], false
	compared := false
	if s.fn != nil {
		compared = s.fn(d, p.base, p.obj)
	} else {
		compared = reflectDiff(d, s.refl, p.status(p.base), p.status(p.obj))
	}
	if !compared || d.decline {
		return false, false
	}
	if len(d.base) == 0 && len(d.cur) == 0 {
		return false, true
	}
	patch, err := jsonpatch.CreateMergePatch(object(d.base), object(d.cur))
	if err != nil {
		return false, false // the reflection path reports it
	}
	if string(patch) == "{}" {
		return false, true
	}
	s.patch = patch
	return true, true
}

// statusPatch returns the status merge patch: the generated diff's when
// statusChange took that path (cur is nil), else the diff of the whole
// marshalled statuses.
func (p *Patcher[T]) statusPatch(cur []byte) ([]byte, error) {
	if cur == nil && p.fieldDiff.patch != nil {
		return p.fieldDiff.patch, nil
	}
	base, err := p.baseStatus()
	if err != nil {
		return nil, err
	}
	diff, err := statusMergePatch(base, cur)
	if err != nil {
		return nil, fmt.Errorf("statuspatch: %s: diff status: %w", p.id(), err)
	}
	return diff, nil
}

// sentStatus is the status as Flush sent it, as JSON: cur from the
// reflection path, or marshalled now after the generated diff (which
// marshals only the changed fields).
func (p *Patcher[T]) sentStatus(cur []byte) ([]byte, error) {
	if cur != nil {
		return cur, nil
	}
	b, err := json.Marshal(p.status(p.obj))
	if err != nil {
		return nil, fmt.Errorf("statuspatch: %s: marshal status: %w", p.id(), err)
	}
	return b, nil
}

func object(members []byte) []byte {
	b := make([]byte, 0, len(members)+2)
	b = append(b, '{')
	b = append(b, members...)
	return append(b, '}')
}

// CompareField compares one top-level status field (Go name name, struct
// tag tag) of the base and the object as reflect.DeepEqual does (see
// DeepEqual), and records it with FieldChanged when they differ. Generated
// code calls it for fields it cannot compare itself: an interface, or a
// type the generator did not load.
func CompareField[F any](d *FieldDiff, name, tag string, base, cur *F) {
	if !DeepEqual(base, cur) {
		FieldChanged(d, name, tag, base, cur)
	}
}

// DeepEqual reports whether *a and *b are reflect.DeepEqual. Strings,
// numbers and bools, the common case, are compared without DeepEqual's
// bookkeeping of visited pointers. Generated equality functions call it
// for the values they cannot compare field by field.
func DeepEqual[F any](a, b *F) bool {
	va, vb := reflect.ValueOf(a).Elem(), reflect.ValueOf(b).Elem()
	switch va.Kind() {
	case reflect.Bool, reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr,
		reflect.Float32, reflect.Float64, reflect.Complex64, reflect.Complex128, reflect.String:
		return va.Equal(vb)
	}
	return reflect.DeepEqual(a, b)
}

// FieldChanged records one top-level status field (Go name name, struct
// tag tag, pointers to its value in the base and the object) that may
// differ: it marshals both values exactly as encoding/json marshals them
// inside the status (the same tag, so omitempty, omitzero and string
// apply), and keeps them when their JSON differs. Calling it for equal
// values is correct, only slower. When the object's JSON holds null or
// either value fails to marshal, the whole write takes the reflection path.
func FieldChanged[F any](d *FieldDiff, name, tag string, base, cur *F) {
	if d.decline {
		return
	}
	fieldChanged(d, wrapperType(reflect.TypeFor[F](), name, tag), reflect.ValueOf(base).Elem(), reflect.ValueOf(cur).Elem())
}

// fieldChanged is FieldChanged on the field's values, through the wrapper
// type t of wrapperType.
func fieldChanged(d *FieldDiff, t reflect.Type, base, cur reflect.Value) {
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
		// A JSON null in a merge patch deletes: the reflection path decides
		// how to send it.
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

type wrapperKey struct {
	t         reflect.Type
	name, tag string
}

// wrappers caches the one-field struct types FieldChanged marshals through.
var wrappers sync.Map // wrapperKey -> reflect.Type

// wrapperType is struct{ <name> F `<tag>` }: marshalled, it is the member
// the field contributes to its status object, under encoding/json's own
// rules (omitempty, omitzero, string, Marshaler methods).
func wrapperType(t reflect.Type, name, tag string) reflect.Type {
	k := wrapperKey{t, name, tag}
	if w, ok := wrappers.Load(k); ok {
		return w.(reflect.Type)
	}
	w := reflect.StructOf([]reflect.StructField{{Name: name, Type: t, Tag: reflect.StructTag(tag)}})
	wrappers.Store(k, w)
	return w
}
