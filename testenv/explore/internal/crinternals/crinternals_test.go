package crinternals

import (
	"context"
	"errors"
	"reflect"
	"testing"

	"sigs.k8s.io/controller-runtime/pkg/client/interceptor"
	"sigs.k8s.io/controller-runtime/pkg/manager"
)

func TestSetIfPresent(t *testing.T) {
	want := errors.New("intercepted")
	var got []reflect.Value
	fn := func(args []reflect.Value) error { got = args; return want }
	var funcs interceptor.Funcs
	SetIfPresent(&funcs, "SubResourcePatch", fn) // every supported line has it
	if funcs.SubResourcePatch == nil {
		t.Fatal("SubResourcePatch was not set")
	}
	if err := funcs.SubResourcePatch(context.Background(), nil, "status", nil, nil); !errors.Is(err, want) {
		t.Fatalf("SubResourcePatch returned %v, want %v", err, want)
	}
	if len(got) != 6 || got[2].String() != "status" || got[5].Kind() != reflect.Slice {
		t.Fatalf("fn got %d arguments (%v), want 6 with the subresource third and the options as one slice", len(got), got)
	}

	SetIfPresent(&funcs, "NoSuchFunc", fn) // an older line's Funcs: nothing happens
	SetIfPresent(&funcs, "", fn)

	// SubResourceApply exists from controller-runtime v0.23 on (hack/compat.sh
	// runs this test at v0.22 too): when present, it must be set.
	SetIfPresent(&funcs, "SubResourceApply", fn)
	f := reflect.ValueOf(funcs).FieldByName("SubResourceApply")
	if !f.IsValid() {
		t.Log("this controller-runtime has no SubResourceApply (v0.22)")
		return
	}
	if f.IsNil() {
		t.Fatal("SubResourceApply is present but was not set")
	}
	args := make([]reflect.Value, f.Type().NumIn())
	for i := range args {
		args[i] = reflect.Zero(f.Type().In(i))
	}
	args[0] = reflect.ValueOf(context.Background())
	out := f.CallSlice(args)
	if err, _ := out[0].Interface().(error); !errors.Is(err, want) {
		t.Fatalf("SubResourceApply returned %v, want %v", out[0].Interface(), want)
	}
}

// A runnable that is not a controller is refused, not read.
func TestInspectRefusesNonController(t *testing.T) {
	for _, r := range []manager.Runnable{manager.RunnableFunc(func(context.Context) error { return nil }), &struct{ manager.Runnable }{}} {
		if _, err := Inspect(r); err == nil {
			t.Errorf("%T: no error", r)
		}
	}
}
