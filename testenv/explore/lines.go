package explore

import (
	"reflect"

	"sigs.k8s.io/controller-runtime/pkg/client/interceptor"
)

// setIfPresent sets the interceptor function named field, when this
// controller-runtime has it, to one that calls fn with the call's arguments
// (a variadic last argument as one slice) and returns its error. It lets
// the explorer intercept a call that only newer lines have without naming
// their types, so that it builds at every supported line.
func setIfPresent(funcs *interceptor.Funcs, field string, fn func(args []reflect.Value) error) {
	f := reflect.ValueOf(funcs).Elem().FieldByName(field)
	if !f.IsValid() || f.Kind() != reflect.Func || f.Type().NumOut() != 1 ||
		f.Type().Out(0) != reflect.TypeFor[error]() {
		return
	}
	f.Set(reflect.MakeFunc(f.Type(), func(args []reflect.Value) []reflect.Value {
		err := fn(args)
		return []reflect.Value{reflect.ValueOf(&err).Elem()}
	}))
}
