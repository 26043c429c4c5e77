package explore

import (
	"context"
	"errors"
	"reflect"
	"testing"

	"sigs.k8s.io/controller-runtime/pkg/client/interceptor"
)

func TestRefuseIfPresent(t *testing.T) {
	want := errors.New("refused")
	var funcs interceptor.Funcs
	refuseIfPresent(&funcs, "SubResourcePatch", want) // every supported line has it
	if funcs.SubResourcePatch == nil {
		t.Fatal("SubResourcePatch was not set")
	}
	if err := funcs.SubResourcePatch(context.Background(), nil, "status", nil, nil); !errors.Is(err, want) {
		t.Fatalf("SubResourcePatch returned %v, want %v", err, want)
	}

	refuseIfPresent(&funcs, "NoSuchFunc", want) // an older line's Funcs: nothing happens
	refuseIfPresent(&funcs, "", want)

	// SubResourceApply exists from controller-runtime v0.23 on (hack/compat.sh
	// runs this test at v0.22 too): when present, it must refuse.
	refuseIfPresent(&funcs, "SubResourceApply", want)
	if f := reflect.ValueOf(funcs).FieldByName("SubResourceApply"); f.IsValid() {
		if f.IsNil() {
			t.Fatal("SubResourceApply is present but was not set")
		}
		args := make([]reflect.Value, f.Type().NumIn())
		for i := range args {
			args[i] = reflect.Zero(f.Type().In(i))
		}
		args[0] = reflect.ValueOf(context.Background())
		var out []reflect.Value
		if f.Type().IsVariadic() {
			out = f.CallSlice(args)
		} else {
			out = f.Call(args)
		}
		if err, _ := out[0].Interface().(error); !errors.Is(err, want) {
			t.Fatalf("SubResourceApply returned %v, want %v", out[0].Interface(), want)
		}
	}
}
