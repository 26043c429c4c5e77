package crinternals

import (
	"context"
	"errors"
	"reflect"
	"testing"

	"k8s.io/utils/ptr"
	"sigs.k8s.io/controller-runtime/pkg/client/interceptor"
	"sigs.k8s.io/controller-runtime/pkg/config"
	"sigs.k8s.io/controller-runtime/pkg/controller"
	"sigs.k8s.io/controller-runtime/pkg/manager"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"
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

// A controller with warm-up, its own option or the manager's, or without
// leader election starts its sources before its manager is elected; one
// with neither, or with warm-up turned off, once elected.
func TestInspectStartsBeforeElection(t *testing.T) {
	do := reconcile.Func(func(context.Context, reconcile.Request) (reconcile.Result, error) { return reconcile.Result{}, nil })
	for _, tc := range []struct {
		name            string
		warmup, elected *bool
		managers        config.Controller
		want            bool
	}{
		{name: "default", want: false},
		{name: "warm-up", warmup: ptr.To(true), want: true},
		{name: "warm-up off", warmup: ptr.To(false), managers: config.Controller{EnableWarmup: ptr.To(true)}, want: false},
		{name: "the manager's warm-up", managers: config.Controller{EnableWarmup: ptr.To(true)}, want: true},
		{name: "no leader election", elected: ptr.To(false), want: true},
		{name: "leader election", elected: ptr.To(true), want: false},
	} {
		o := controller.Options{Reconciler: do, EnableWarmup: tc.warmup, NeedLeaderElection: tc.elected, SkipNameValidation: ptr.To(true)}
		o.DefaultFromConfig(tc.managers) // as controller.New does with mgr.GetControllerOptions()
		r, err := controller.NewUnmanaged(tc.name, o)
		if err != nil {
			t.Fatal(err)
		}
		c, err := Inspect(r)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if c.StartsBeforeElection != tc.want {
			t.Errorf("%s: StartsBeforeElection %t, want %t", tc.name, c.StartsBeforeElection, tc.want)
		}
	}
}

// TestSubResourceApplyArgs: the arguments the interceptor is called with
// are checked before anything is sent.
func TestSubResourceApplyArgs(t *testing.T) {
	if _, _, _, _, err := SubResourceApply(make([]reflect.Value, 4)); err == nil {
		t.Error("four arguments were taken")
	}
	args := []reflect.Value{reflect.ValueOf(context.Background()), reflect.ValueOf((*int)(nil)), reflect.ValueOf("status"), reflect.ValueOf((*int)(nil)), reflect.ValueOf([]int(nil))}
	if _, _, _, _, err := SubResourceApply(args); err == nil {
		t.Error("a call without a client was taken")
	}
}
