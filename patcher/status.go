package patcher

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"

	"sigs.k8s.io/controller-runtime/pkg/client"
)

// reflectStatus finds the field named Status of *T's struct, of struct or
// pointer-to-struct type, and returns an accessor for its address.
func reflectStatus[T client.Object](obj T) (StatusFunc[T], error) {
	t := reflect.TypeOf(obj).Elem()
	if t.Kind() != reflect.Struct {
		return nil, fmt.Errorf("statuspatch: %T is not a pointer to a struct", obj)
	}
	f, ok := t.FieldByName("Status")
	if !ok {
		return nil, fmt.Errorf("statuspatch: %T has no Status field", obj)
	}
	ft := f.Type
	if ft.Kind() == reflect.Pointer {
		ft = ft.Elem()
	}
	if ft.Kind() != reflect.Struct {
		return nil, fmt.Errorf("statuspatch: %T.Status is %s, not a struct", obj, f.Type)
	}
	index := f.Index
	return func(o T) any {
		return reflect.ValueOf(o).Elem().FieldByIndex(index).Addr().Interface()
	}, nil
}

// statusChange compares the object's status with the base's. It returns
// whether they differ and, when they do, the current status as JSON.
// reflect.DeepEqual settles the common no-op case without marshalling;
// values it calls different are compared again as JSON, because that is what
// a patch would carry.
func (p *Patcher[T]) statusChange() (bool, []byte, error) {
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

func (p *Patcher[T]) baseStatus() ([]byte, error) {
	if p.baseStatusJSON == nil {
		b, err := json.Marshal(p.status(p.base))
		if err != nil {
			return nil, fmt.Errorf("statuspatch: %s: marshal base status: %w", p.id(), err)
		}
		p.baseStatusJSON = b
	}
	return p.baseStatusJSON, nil
}
