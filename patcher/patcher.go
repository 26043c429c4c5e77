package patcher

import (
	"context"
	"fmt"
	"reflect"
	"sync"

	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/statuspatch/statuspatch/patcher/internal/wire"
)

// StatusFunc returns the address of obj's status field: a pointer to the
// status struct, or, for a pointer-typed field, a pointer to that pointer.
// Generated code passes one; New finds the field named Status by reflection.
// New checks the address it returns: it must point at obj's own field whose
// JSON name is "status", never at a copy.
type StatusFunc[T client.Object] func(obj T) any

// Patcher writes an object's status with an optimistic lock. Make one per
// reconcile from a freshly fetched object; it is not safe for concurrent use,
// and one object pointer must have one Patcher (a second one over the same
// pointer sees the first one's writes as a concurrent writer's, and its
// Flush returns a Conflict).
//
// The zero Patcher is not usable: its methods return an error matching
// ErrInvalidInput. Make one with New, NewWithStatus, Fetch or FetchWithStatus.
type Patcher[T client.Object] struct {
	// What it writes through and how (patcher.go, options.go).
	client  client.Client
	opts    options
	err     error // construction error, returned by every write
	ready   bool  // made by a constructor without error
	metrics *metricSet

	// The object, its base and the diff of their statuses (snapshot.go).
	snapshot[T]
	gone bool // the last finalizer of a deleting object was removed

	// How Flush writes: the write mode as one value (writer.go).
	writer writer[T]
	// The status given to ApplyStatus (applystatus.go), or why it could
	// not be taken, in any mode: the next Flush returns that error.
	pending *pendingApply[T]

	// The write token (WithWriteToken, writetoken.go).
	token writeToken[T]

	// Settling a write whose answer did not say (landed.go).
	settler settler[T]

	// The version book (records.go, freshness.go).
	tracker tracker[T]
}

// New makes a Patcher over obj, an object the caller just fetched. The status
// is the field named Status, found by reflection; generated code uses
// NewWithStatus instead. Errors (a nil object or client, no Status field) are
// returned by Err, Flush, Retry and the finalizer methods; Object still
// returns obj.
func New[T client.Object](c client.Client, obj T, opts ...Option) *Patcher[T] {
	return NewWithStatus(c, obj, nil, opts...)
}

// NewWithStatus is New with an explicit status accessor.
func NewWithStatus[T client.Object](c client.Client, obj T, status StatusFunc[T], opts ...Option) *Patcher[T] {
	c, opts = withDefaults(c, opts)
	p := &Patcher[T]{opts: defaultOptions()}
	p.settler.p = p // in the Patcher: no allocation of its own
	p.tracker.p = p
	for _, o := range opts {
		if o != nil {
			o.applyToPatcher(&p.opts)
		}
	}
	p.metrics = metricsFor(p.opts.registerer)
	if !isNil(obj) {
		p.obj = obj // Object() works even when construction fails
	}
	if p.err = validate(c, obj); p.err != nil {
		p.kind = kindOf(nil, obj)
		return p
	}
	p.client = c
	p.kind = kindOf(c, obj)
	if status == nil {
		status, p.err = reflectStatus[T](obj)
	} else {
		p.err = checkStatusFunc(obj, status)
	}
	if p.err != nil {
		return p
	}
	p.status = status
	if p.err = p.fieldDiff.use(&p.snapshot, opts); p.err != nil {
		return p
	}
	if p.err = p.token.use(&p.snapshot, opts); p.err != nil {
		return p
	}
	if p.err = p.checkOwnedConditions(); p.err != nil {
		return p
	}
	if p.err = p.checkListMapKeys(); p.err != nil {
		return p
	}
	if p.writer, p.err = newWriter(p); p.err != nil {
		return p
	}
	if !p.writer.locked() {
		// Without the lock a token proves nothing (once needs the lock),
		// and a resend that puts it back would be a write.
		p.token.field = nil
	}
	p.setBase(obj)
	// New cannot know when the caller's read began, so it never calls the
	// object stale (Fetch checks its own read); and the version book learns
	// from writes and re-reads. Construction stays as cheap as the deep copy.
	p.ready = true
	return p
}

// Fetch reads the object at key into obj through c and makes a Patcher over
// it in one step.
func Fetch[T client.Object](ctx context.Context, c client.Client, key client.ObjectKey, obj T, opts ...Option) (*Patcher[T], error) {
	return FetchWithStatus(ctx, c, key, obj, nil, opts...)
}

// FetchWithStatus is Fetch with an explicit status accessor.
func FetchWithStatus[T client.Object](ctx context.Context, c client.Client, key client.ObjectKey, obj T, status StatusFunc[T], opts ...Option) (*Patcher[T], error) {
	c, opts = withDefaults(c, opts)
	if err := validate(c, obj); err != nil {
		return nil, err
	}
	if ctx == nil {
		return nil, fmt.Errorf("statuspatch: get %s %s: nil context: %w", kindOf(c, obj), key, ErrInvalidInput)
	}
	readSeq := records.Sequence()
	if err := c.Get(ctx, key, obj); err != nil {
		return nil, fmt.Errorf("statuspatch: get %s %s: %w", kindOf(c, obj), key, withCause(ctx, err))
	}
	p := NewWithStatus(c, obj, status, opts...)
	if p.err != nil {
		return nil, p.err
	}
	if err := p.tracker.fetched(ctx, readSeq); err != nil {
		return nil, err
	}
	return p, nil
}

// Object returns the live object. Mutate its status in memory, then Flush.
// It is the zero T (nil) for a nil or zero Patcher and for one made from a
// nil object.
func (p *Patcher[T]) Object() T {
	if p == nil {
		var zero T
		return zero
	}
	return p.obj
}

// Err returns why the Patcher cannot write, if it cannot: ErrNilPatcher for
// a nil *Patcher, or an error matching ErrInvalidInput for a zero Patcher, a
// nil object, a nil client or a bad status accessor.
func (p *Patcher[T]) Err() error {
	switch {
	case p == nil:
		return ErrNilPatcher
	case p.err != nil:
		return p.err
	case !p.ready:
		return fmt.Errorf("statuspatch: zero Patcher: make it with patcher.New, NewWithStatus, Fetch or FetchWithStatus: %w", ErrInvalidInput)
	}
	return nil
}

// HasChanges reports whether the object's status differs from the base, so
// that Flush would write. It is false for a Patcher that cannot write (Err).
func (p *Patcher[T]) HasChanges() bool {
	if p.Err() != nil {
		return false
	}
	if pa := p.pending; pa != nil {
		return pa.err != nil || pa.applier.pendingChanges()
	}
	changed, _, err := p.statusChange()
	return err == nil && changed
}

func validate(c client.Client, obj client.Object) error {
	if isNil(c) {
		return fmt.Errorf("statuspatch: nil client: %w", ErrInvalidInput)
	}
	if obj == nil {
		return fmt.Errorf("statuspatch: nil object: %w", ErrInvalidInput)
	}
	v := reflect.ValueOf(obj)
	if v.Kind() != reflect.Pointer || v.IsNil() {
		return fmt.Errorf("statuspatch: nil or non-pointer %T object: %w", obj, ErrInvalidInput)
	}
	if v.Elem().Kind() != reflect.Struct {
		return fmt.Errorf("statuspatch: %T is not a pointer to a struct: %w", obj, ErrInvalidInput)
	}
	return nil
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
	if !isNil(obj) && !isNil(c) {
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

// isNil reports whether v is nil or a typed nil (wire.IsNil).
func isNil(v any) bool { return wire.IsNil(v) }
