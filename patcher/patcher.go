package patcher

import (
	"context"
	"fmt"
	"reflect"
	"sync"

	"sigs.k8s.io/controller-runtime/pkg/client"
)

// StatusFunc returns the address of obj's status field: a pointer to the
// status struct, or, for a pointer-typed field, a pointer to that pointer.
// Generated code passes one; New finds the field named Status by reflection.
type StatusFunc[T client.Object] func(obj T) any

// Patcher writes an object's status with an optimistic lock. Make one per
// reconcile from a freshly fetched object; it is not safe for concurrent use.
type Patcher[T client.Object] struct {
	client client.Client
	opts   Options
	status StatusFunc[T]
	err    error // construction error, returned by every write

	obj  T // the caller's object, mutated in memory
	base T // the last state known to be on the server

	baseStatusJSON []byte // lazily marshalled status of base
	gone           bool   // the last finalizer of a deleting object was removed
	kind           string
	metrics        *metricSet
}

// New makes a Patcher over obj, an object the caller just fetched. The status
// is the field named Status, found by reflection; generated code uses
// NewWithStatus instead. Errors (a nil object, no Status field) are returned
// by Err, Flush and Retry.
func New[T client.Object](c client.Client, obj T, opts ...Option) *Patcher[T] {
	return NewWithStatus(c, obj, nil, opts...)
}

// NewWithStatus is New with an explicit status accessor.
func NewWithStatus[T client.Object](c client.Client, obj T, status StatusFunc[T], opts ...Option) *Patcher[T] {
	p := &Patcher[T]{client: c, opts: defaultOptions(), status: status}
	for _, o := range opts {
		if o != nil {
			o.ApplyToPatcher(&p.opts)
		}
	}
	p.kind = kindOf(c, obj)
	p.metrics = metricsFor(p.opts.Registerer)
	if p.err = validate(c, obj); p.err != nil {
		return p
	}
	if p.status == nil {
		if p.status, p.err = reflectStatus[T](obj); p.err != nil {
			return p
		}
	}
	p.obj = obj
	p.setBase(obj)
	return p
}

// Fetch reads the object at key into obj through c and makes a Patcher over
// it in one step.
func Fetch[T client.Object](ctx context.Context, c client.Client, key client.ObjectKey, obj T, opts ...Option) (*Patcher[T], error) {
	return FetchWithStatus(ctx, c, key, obj, nil, opts...)
}

// FetchWithStatus is Fetch with an explicit status accessor.
func FetchWithStatus[T client.Object](ctx context.Context, c client.Client, key client.ObjectKey, obj T, status StatusFunc[T], opts ...Option) (*Patcher[T], error) {
	if err := validate(c, obj); err != nil {
		return nil, err
	}
	if err := c.Get(ctx, key, obj); err != nil {
		return nil, fmt.Errorf("statuspatch: get %s %s: %w", kindOf(c, obj), key, err)
	}
	p := NewWithStatus(c, obj, status, opts...)
	return p, p.err
}

// Object returns the live object. Mutate its status in memory, then Flush.
// It is the zero T (nil) when the Patcher was made from a nil object.
func (p *Patcher[T]) Object() T {
	if p == nil {
		var zero T
		return zero
	}
	return p.obj
}

// Err returns the construction error, if any: a nil object, a nil client or
// an object without a status field.
func (p *Patcher[T]) Err() error {
	if p == nil {
		return ErrNilPatcher
	}
	return p.err
}

// HasChanges reports whether the object's status differs from the base, so
// that Flush would write.
func (p *Patcher[T]) HasChanges() bool {
	if p == nil || p.err != nil {
		return false
	}
	changed, _, err := p.statusChange()
	return err == nil && changed
}

func validate(c client.Client, obj client.Object) error {
	if c == nil {
		return fmt.Errorf("statuspatch: nil client")
	}
	if obj == nil {
		return fmt.Errorf("statuspatch: nil object")
	}
	v := reflect.ValueOf(obj)
	if v.Kind() != reflect.Pointer || v.IsNil() {
		return fmt.Errorf("statuspatch: nil or non-pointer %T object", obj)
	}
	return nil
}

// setBase records obj's current state as the state on the server.
func (p *Patcher[T]) setBase(obj T) {
	p.base = obj.DeepCopyObject().(T)
	p.baseStatusJSON = nil
}

// id names the object in errors and logs: "Kind namespace/name".
func (p *Patcher[T]) id() string {
	return fmt.Sprintf("%s %s", p.kind, client.ObjectKeyFromObject(p.obj))
}

// kinds caches the kind name of each Go type, so that making a Patcher does
// not look the type up in the scheme every time.
var kinds sync.Map // reflect.Type -> string

func kindOf(c client.Client, obj client.Object) string {
	if obj == nil {
		return "<nil>"
	}
	t := reflect.TypeOf(obj)
	if k, ok := kinds.Load(t); ok {
		return k.(string)
	}
	if !isNil(obj) && c != nil {
		if gvk, err := c.GroupVersionKindFor(obj); err == nil && gvk.Kind != "" {
			kinds.Store(t, gvk.Kind)
			return gvk.Kind
		}
	}
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	return t.Name()
}

func isNil(obj any) bool {
	v := reflect.ValueOf(obj)
	return !v.IsValid() || (v.Kind() == reflect.Pointer && v.IsNil())
}
