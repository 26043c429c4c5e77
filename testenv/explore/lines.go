package explore

import (
	"reflect"

	"sigs.k8s.io/controller-runtime/pkg/client/interceptor"
)

// refuseIfPresent sets the interceptor function named field, when this
// controller-runtime has it, to one that returns err and does nothing else.
// It lets the explorer refuse a call that only newer lines have without
// naming their types, so that it builds at every supported line.
func refuseIfPresent(funcs *interceptor.Funcs, field string, err error) {
	f := reflect.ValueOf(funcs).Elem().FieldByName(field)
	if !f.IsValid() || f.Kind() != reflect.Func || f.Type().NumOut() != 1 {
		return
	}
	f.Set(reflect.MakeFunc(f.Type(), func([]reflect.Value) []reflect.Value {
		return []reflect.Value{reflect.ValueOf(&err).Elem()}
	}))
}
