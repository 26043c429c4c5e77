package wire

import "reflect"

// IsNil reports whether v is nil or a nil pointer, map, slice, func,
// channel or interface held in an interface (a typed nil).
func IsNil(v any) bool {
	rv := reflect.ValueOf(v)
	if !rv.IsValid() {
		return true
	}
	switch rv.Kind() {
	case reflect.Pointer, reflect.Map, reflect.Slice, reflect.Func, reflect.Chan, reflect.Interface:
		return rv.IsNil()
	}
	return false
}
