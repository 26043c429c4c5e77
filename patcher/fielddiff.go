package patcher

import (
	"encoding/json"
	"fmt"
	"reflect"

	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/statuspatch/statuspatch/patcher/internal/diff"
)

// This file is the public half of the generated field-by-field status
// diff: the types, option and helpers statuspatch-gen's code calls, and the
// Patcher's use of them. The engine is patcher/internal/diff (generated.go,
// the generated path; reflective.go, the reflective fallback).

// FieldDiff collects the top-level status fields that differ between the
// base and the object, as JSON object members. A FieldDiffFunc fills it
// through CompareField and FieldChanged; it has no other use. Generated
// code is its only intended user: docs/patcher.md ("The generated
// field-by-field diff") states the contract a hand-written FieldDiffFunc
// must keep.
type FieldDiff struct {
	d diff.Fields
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
	refl  diff.Plan // without fn: the fields compared through reflection (internal/diff/reflective.go)
	diff  FieldDiff
	patch []byte // the status merge patch of the last change that found one
}

// use picks the WithFieldDiff option out of opts, for p. It is an error
// for one made for another object type.
func (s *fieldDiffState[T]) use(p *snapshot[T], opts []Option) error {
	for _, o := range opts {
		if o == nil {
			continue
		}
		if f, ok := o.(fieldDiffOption[T]); ok && f.f != nil {
			s.fn = f.f
			continue
		}
		if _, ok := o.(interface{ fieldDiffFor() reflect.Type }); ok {
			return fmt.Errorf("statuspatch: WithFieldDiff for another type than %T: %w", p.obj, ErrInvalidInput)
		}
	}
	if s.fn == nil {
		s.refl = diff.PlanFor(reflect.TypeOf(p.status(p.obj)).Elem())
	}
	return nil
}

// fieldDiffFor names the object type the option was made for.
func (fieldDiffOption[T]) fieldDiffFor() reflect.Type { return reflect.TypeFor[T]() }

// change is p's statusChange through the generated diff. ok is false when
// there is no generated diff or it declined: the caller takes the
// reflection path. With ok and changed, statusPatch returns the patch.
func (s *fieldDiffState[T]) change(p *snapshot[T]) (changed, ok bool) {
	// A zero base may be no status at all on the server: the first write
	// takes the reflection path, which sends every field.
	if (s.fn == nil && s.refl == nil) || p.baseStatusZero() {
		return false, false
	}
	s.patch = nil
	d := &s.diff.d
	d.Reset()
	compared := false
	if s.fn != nil {
		compared = s.fn(&s.diff, p.base, p.obj)
	} else {
		compared = d.Reflect(s.refl, p.status(p.base), p.status(p.obj))
	}
	if !compared {
		return false, false
	}
	patch, changed, ok := d.Patch()
	if !ok || !changed {
		return false, ok
	}
	s.patch = patch
	return true, true
}

// equal reports, through the generated diff, whether the statuses of a and
// b marshal alike, field by field (typed comparisons, then the JSON of the
// fields those call different). ok is false without a generated diff or
// when it declined: the caller compares otherwise. It reuses the diff's
// buffers; the last patch (s.patch) is kept.
func (s *fieldDiffState[T]) equal(a, b T) (equal, ok bool) {
	if s.fn == nil {
		return false, false
	}
	d := &s.diff.d
	d.Reset()
	if !s.fn(&s.diff, a, b) || d.Declined() {
		return false, false
	}
	return d.Empty(), true
}

// statusPatch returns the status merge patch: the generated diff's when
// statusChange took that path (cur is nil), else the diff of the whole
// marshalled statuses.
func (p *snapshot[T]) statusPatch(cur []byte) ([]byte, error) {
	if cur == nil && p.fieldDiff.patch != nil {
		return p.fieldDiff.patch, nil
	}
	base, err := p.baseStatus()
	if err != nil {
		return nil, err
	}
	patch, err := diff.StatusMergePatch(base, cur)
	if err != nil {
		return nil, fmt.Errorf("statuspatch: %s: diff status: %w", p.id(), err)
	}
	return patch, nil
}

// sentStatus is the status as merge mode's Flush sent it, as JSON: cur
// from the reflection path, or marshalled now after the generated diff
// (which marshals only the changed fields).
func (m merger[T]) sentStatus(cur []byte) ([]byte, error) {
	p := m.p
	if cur != nil {
		return cur, nil
	}
	b, err := json.Marshal(p.status(p.obj))
	if err != nil {
		return nil, fmt.Errorf("statuspatch: %s: marshal status: %w", p.id(), err)
	}
	return b, nil
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
	return diff.Equal(a, b)
}

// FieldChanged records one top-level status field (Go name name, struct
// tag tag, pointers to its value in the base and the object) that may
// differ: it marshals both values exactly as encoding/json marshals them
// inside the status (the same tag, so omitempty, omitzero and string
// apply), and keeps them when their JSON differs. Calling it for equal
// values is correct, only slower. When the object's JSON holds null or
// either value fails to marshal, the whole write takes the reflection path.
func FieldChanged[F any](d *FieldDiff, name, tag string, base, cur *F) {
	if d.d.Declined() {
		return
	}
	d.d.Change(diff.WrapperType(reflect.TypeFor[F](), name, tag), reflect.ValueOf(base).Elem(), reflect.ValueOf(cur).Elem())
}
