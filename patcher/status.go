package patcher

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"slices"

	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/statuspatch/statuspatch/patcher/internal/diff"
)

// reflectStatus finds the field named Status of *T's struct, of struct or
// pointer-to-struct type, and returns an accessor for its address.
func reflectStatus[T client.Object](obj T) (StatusFunc[T], error) {
	t := reflect.TypeOf(obj).Elem()
	f, ok := t.FieldByName("Status")
	if !ok {
		return nil, fmt.Errorf("statuspatch: %T has no Status field: %w", obj, ErrInvalidInput)
	}
	if !isStatusType(f.Type) {
		return nil, fmt.Errorf("statuspatch: %T.Status is %s, not a struct: %w", obj, f.Type, ErrInvalidInput)
	}
	index := f.Index
	return func(o T) any {
		return reflect.ValueOf(o).Elem().FieldByIndex(index).Addr().Interface()
	}, nil
}

// checkStatusFunc calls status on obj and checks that it returned the
// address of obj's own status field: a non-nil pointer into obj, at a field
// whose JSON name is "status", of struct or pointer-to-struct type. A value,
// a nil, or the address of a copy would make every Flush a silent no-op or a
// panic.
func checkStatusFunc[T client.Object](obj T, status StatusFunc[T]) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("statuspatch: the StatusFunc for %T panicked: %v: %w", obj, r, ErrInvalidInput)
		}
	}()
	got := reflect.ValueOf(status(obj))
	if !got.IsValid() || got.Kind() != reflect.Pointer || got.IsNil() {
		return fmt.Errorf("statuspatch: the StatusFunc for %T returned %s, not the address of its status field (return &o.Status): %w",
			obj, describe(got), ErrInvalidInput)
	}
	o := reflect.ValueOf(obj)
	start, size := o.Pointer(), o.Elem().Type().Size()
	if addr := got.Pointer(); addr < start || addr >= start+size {
		return fmt.Errorf("statuspatch: the StatusFunc for %T returned a pointer outside the object (a copy of the status?): return &o.Status: %w", obj, ErrInvalidInput)
	}
	f, ok := fieldAt(o.Elem().Type(), got.Pointer()-start, got.Type().Elem())
	if !ok || jsonName(f) != "status" {
		return fmt.Errorf("statuspatch: the StatusFunc for %T returned the address of a field that is not the status (JSON name \"status\"): %w", obj, ErrInvalidInput)
	}
	if !isStatusType(f.Type) {
		return fmt.Errorf("statuspatch: %T's status is %s, not a struct: %w", obj, f.Type, ErrInvalidInput)
	}
	return nil
}

// fieldAt finds the field of struct type t at byte offset off with type
// want, looking through embedded structs.
func fieldAt(t reflect.Type, off uintptr, want reflect.Type) (reflect.StructField, bool) {
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		if off < f.Offset || off >= f.Offset+max(f.Type.Size(), 1) {
			continue
		}
		if f.Offset == off && f.Type == want {
			return f, true
		}
		if f.Anonymous && f.Type.Kind() == reflect.Struct {
			if inner, ok := fieldAt(f.Type, off-f.Offset, want); ok {
				return inner, true
			}
		}
	}
	return reflect.StructField{}, false
}

func isStatusType(t reflect.Type) bool {
	if t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	return t.Kind() == reflect.Struct
}

func describe(v reflect.Value) string {
	if !v.IsValid() {
		return "nil"
	}
	if v.Kind() == reflect.Pointer && v.IsNil() {
		return "a nil " + v.Type().String()
	}
	return "a " + v.Type().String() + " value"
}

// statusChange compares the object's status with the base's. It returns
// whether they differ and, when they do, the current status as JSON.
// reflect.DeepEqual settles the common no-op case without marshalling;
// values it calls different are compared again as JSON, because that is what
// a patch would carry.
func (p *snapshot[T]) statusChange() (bool, []byte, error) {
	if changed, ok := p.fieldDiff.change(p); ok {
		return changed, nil, nil // the generated diff: statusPatch has the patch
	}
	cur := p.status(p.obj)
	if reflect.DeepEqual(p.status(p.base), cur) {
		return false, nil, nil
	}
	base, err := p.baseStatus()
	if err != nil {
		return false, nil, err
	}
	curJSON, err := json.Marshal(cur)
	if err != nil {
		return false, nil, fmt.Errorf("statuspatch: %s: marshal status: %w", p.id(), err)
	}
	return !bytes.Equal(base, curJSON), curJSON, nil
}

// statusJSON is o's status as JSON, what a patch would carry.
func (p *snapshot[T]) statusJSON(o T) ([]byte, error) {
	b, err := json.Marshal(p.status(o))
	if err != nil {
		return nil, fmt.Errorf("statuspatch: %s: marshal status: %w", p.id(), err)
	}
	return b, nil
}

func (p *snapshot[T]) baseStatus() ([]byte, error) {
	if p.baseStatusJSON == nil {
		b, err := json.Marshal(p.status(p.base))
		if err != nil {
			return nil, fmt.Errorf("statuspatch: %s: marshal base status: %w", p.id(), err)
		}
		p.baseStatusJSON = b
	}
	return p.baseStatusJSON, nil
}

// baseStatusZero reports whether the base's status is its type's zero value
// (or a nil pointer): the server may then hold no status object at all.
func (p *snapshot[T]) baseStatusZero() bool {
	return reflect.ValueOf(p.status(p.base)).Elem().IsZero()
}

// changedStatusFields names, as JSON paths ("status.phase"), the top-level
// status fields where the object differs from the base.
func (p *snapshot[T]) changedStatusFields() ([]string, error) {
	changed, cur, err := p.statusChange()
	if err != nil || !changed {
		return nil, err
	}
	patch, err := p.statusPatch(cur)
	if err != nil {
		return nil, err
	}
	var fields map[string]json.RawMessage
	if !diff.IsJSONObject(patch) || json.Unmarshal(patch, &fields) != nil {
		return []string{"status"}, nil
	}
	names := make([]string, 0, len(fields))
	for k := range fields {
		names = append(names, "status."+k)
	}
	slices.Sort(names)
	return names, nil
}
