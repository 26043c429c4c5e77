// Package crinternals reads what controller-runtime keeps unexported, in
// one place: the controllers its builder completes (their name, reconciler
// and the watches they would start) and interceptor functions that only
// newer lines have. Everything here goes through reflect (and unsafe for
// unexported fields); a controller-runtime that changes these internals
// is an error here, not a wrong answer elsewhere. hack/compat.sh runs
// these tests at every supported controller-runtime line.
package crinternals

import (
	"fmt"
	"reflect"
	"runtime"
	"unsafe"

	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/interceptor"
	"sigs.k8s.io/controller-runtime/pkg/handler"
	"sigs.k8s.io/controller-runtime/pkg/manager"
	"sigs.k8s.io/controller-runtime/pkg/predicate"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"
)

// Controller is a controller the builder completed.
type Controller struct {
	Name       string
	Reconciler reconcile.Reconciler
	// Watches are the Kind sources it would start, in order; Channels
	// its channel sources (channel.go), in order.
	Watches  []Watch
	Channels []Channel
	// StartsBeforeElection: it starts its sources when its manager starts,
	// not once elected, so they run on a standby too: warm-up
	// (EnableWarmup, the controller's option or, unset, the manager's
	// Controller options), or no leader election (NeedLeaderElection
	// false). A line without EnableWarmup has no warm-up.
	StartsBeforeElection bool
}

// Watch is one source.Kind of a controller: the kind watched, the event
// handler and the predicates (a typed source.Kind[*T]'s adapted: typed.go).
type Watch struct {
	Type       client.Object
	Handler    handler.EventHandler
	Predicates []predicate.Predicate
	// ForObject marks a handler that queues the object itself
	// (EnqueueRequestForObject, typed or not): the controller's For.
	ForObject bool
	// Cache is the cache the source reads from: nil or the explorer's
	// manager's (recmgr's noCache, which serves nothing), or one the operator built
	// (cache.New(mgr.GetConfig(), ...)) and gave source.Kind.
	Cache any
}

// Inspect reads a controller the builder made (a runnable added to the
// manager): its Name, Do and startWatches, each a source.Kind with Type,
// Handler and Predicates.
func Inspect(r manager.Runnable) (Controller, error) {
	v := reflect.ValueOf(r)
	if v.Kind() != reflect.Pointer || v.Elem().Kind() != reflect.Struct {
		return Controller{}, fmt.Errorf("%T is not a controller", r)
	}
	v = v.Elem()
	name, _ := iface(field(v, "Name")).(string)
	do, _ := iface(field(v, "Do")).(reconcile.Reconciler)
	sw := field(v, "startWatches")
	if name == "" || do == nil || !sw.IsValid() || sw.Kind() != reflect.Slice {
		return Controller{}, fmt.Errorf("%T: no Name, Do or startWatches (this controller-runtime's controller is not one known here)", r)
	}
	c := Controller{Name: name, Reconciler: do}
	warm, okW := optionalBool(v, "EnableWarmup", false)
	elected, okE := optionalBool(v, "LeaderElected", true)
	if !okW || !okE {
		return Controller{}, fmt.Errorf("controller %q: EnableWarmup or LeaderElected is not a *bool (this controller-runtime's controller is not one known here)", name)
	}
	c.StartsBeforeElection = warm || !elected
	for i := 0; i < sw.Len(); i++ {
		src := sw.Index(i)
		for src.Kind() == reflect.Interface || src.Kind() == reflect.Pointer {
			src = src.Elem()
		}
		typ := sw.Index(i).Type().String()
		if e := sw.Index(i); e.Kind() == reflect.Interface && !e.IsNil() {
			typ = e.Elem().Type().String()
		}
		if src.Kind() == reflect.Func {
			return Controller{}, fmt.Errorf("controller %q: watch %d is a source.Func (%s), which the explorer cannot model: it adds to the queue when and from where the operator's code calls it, not in a step the schedule chooses", name, i, typ)
		}
		var w Watch
		predsOK := true
		if src.Kind() == reflect.Struct {
			ch, isChan, err := channelOf(src, typ)
			if err != nil {
				return Controller{}, fmt.Errorf("controller %q: watch %d: %w", name, i, err)
			}
			if isChan {
				c.Channels = append(c.Channels, ch)
				continue
			}
			w.Type, _ = iface(field(src, "Type")).(client.Object)
			h := iface(field(src, "Handler"))
			w.Handler, _ = handlerOf(h)
			w.ForObject = forObject(h)
			w.Predicates, predsOK = predicatesOf(field(src, "Predicates"))
			w.Cache = iface(field(src, "Cache"))
		}
		if w.Type == nil || w.Handler == nil || !predsOK {
			return Controller{}, fmt.Errorf("controller %q: watch %d (%s) is not a Kind or Channel source with a handler (a custom source), which the explorer cannot model", name, i, typ)
		}
		c.Watches = append(c.Watches, w)
	}
	return c, nil
}

// IsController reports that r is a controller as this controller-runtime
// makes them (a struct with the sources it would start), whether or not
// Inspect can read the rest.
func IsController(r manager.Runnable) bool {
	v := reflect.ValueOf(r)
	return v.Kind() == reflect.Pointer && v.Elem().Kind() == reflect.Struct && field(v.Elem(), "startWatches").IsValid()
}

// RunnableName names r for an error: its function (a
// manager.RunnableFunc's), or its Go type.
func RunnableName(r manager.Runnable) string {
	if v := reflect.ValueOf(r); v.Kind() == reflect.Func && !v.IsNil() {
		if f := runtime.FuncForPC(v.Pointer()); f != nil {
			return fmt.Sprintf("%T %s", r, f.Name())
		}
	}
	return fmt.Sprintf("%T", r)
}

// iface is v's value, or nil when v is not valid.
func iface(v reflect.Value) any {
	if !v.IsValid() {
		return nil
	}
	return v.Interface()
}

// optionalBool is v's *bool field name: def when the field is absent (a
// line without it) or nil; false when the field is not a *bool.
func optionalBool(v reflect.Value, name string, def bool) (bool, bool) {
	f := field(v, name)
	if !f.IsValid() {
		return def, true
	}
	p, ok := f.Interface().(*bool)
	if !ok {
		return false, false
	}
	if p == nil {
		return def, true
	}
	return *p, true
}

// field is v's field name, readable even when unexported.
func field(v reflect.Value, name string) reflect.Value {
	f := v.FieldByName(name)
	if !f.IsValid() || !f.CanAddr() {
		return reflect.Value{}
	}
	return reflect.NewAt(f.Type(), unsafe.Pointer(f.UnsafeAddr())).Elem()
}

// SetIfPresent sets the interceptor function named field, when this
// controller-runtime has it, to one that calls fn with the call's arguments
// (a variadic last argument as one slice) and returns its error. It lets a
// caller intercept a call that only newer lines have without naming their
// types, so that it builds at every supported line.
func SetIfPresent(funcs *interceptor.Funcs, field string, fn func(args []reflect.Value) error) {
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
