package crinternals

import (
	"context"
	"errors"
	"fmt"
	"reflect"

	"k8s.io/apimachinery/pkg/runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// SubResourceApply reads the arguments of the interceptor function for
// SubResource(...).Apply, which SetIfPresent installs: controller-runtime
// v0.23 added it, and v0.22, the oldest line testenv supports, has neither
// it nor its option type. It returns the call's context, subresource and
// apply configuration, and send, which applies a configuration as the
// client's own SubResource(sub).Apply, the call's options unchanged.
func SubResourceApply(args []reflect.Value) (ctx context.Context, sub string, ac runtime.ApplyConfiguration,
	send func(context.Context, runtime.ApplyConfiguration) error, err error) {
	if len(args) != 5 {
		return nil, "", nil, nil, fmt.Errorf("explore: SubResource Apply with %d arguments, want 5 (context, client, subresource, apply configuration, options)", len(args))
	}
	ctx, _ = args[0].Interface().(context.Context)
	c, _ := args[1].Interface().(client.Client)
	sub = args[2].String()
	ac, _ = args[3].Interface().(runtime.ApplyConfiguration)
	if ctx == nil || c == nil {
		return nil, "", nil, nil, errors.New("explore: SubResource Apply without a context or client")
	}
	send = func(ctx context.Context, ac runtime.ApplyConfiguration) error {
		m := reflect.ValueOf(c.SubResource(sub)).MethodByName("Apply")
		if !m.IsValid() {
			return fmt.Errorf("explore: %T has no Apply", c.SubResource(sub))
		}
		out := m.CallSlice([]reflect.Value{reflect.ValueOf(ctx), reflect.ValueOf(ac), args[4]})
		err, _ := out[0].Interface().(error)
		return err
	}
	return ctx, sub, ac, send, nil
}
