// Package advonce: issue 80's made-once calls against unusual code.
package advonce

import (
	"context"
	"errors"
	"fmt"
	"sync/atomic"

	v1 "example.com/op/api/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

var tokens atomic.Int64

type gen struct{ n int }

func (g *gen) Next() (int, error) { g.n++; return g.n, nil }
func (g gen) Peek() int           { return g.n }

var names gen

type pool[T any] struct{ items []T }

func (p *pool[T]) Take(def T) T {
	if len(p.items) == 0 {
		return def
	}
	it := p.items[0]
	p.items = p.items[1:]
	return it
}

var sizes pool[int]

type R struct {
	client.Client
	counter atomic.Int64
}

// A local already named tokensAdd.
func (r *R) collide(ctx context.Context, key client.ObjectKey) error {
	w := &v1.Widget{}
	if err := r.Get(ctx, key, w); err != nil {
		return err
	}
	tokensAdd := 3
	fmt.Println(tokensAdd)
	if w.Status.Size == 0 {
		w.Status.Size = int(tokens.Add(1))
	}
	return r.Status().Update(ctx, w) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example\.com/op/internal/patchers\)$`
}

// Two calls of the same method.
func (r *R) twice(ctx context.Context, key client.ObjectKey) error {
	w := &v1.Widget{}
	if err := r.Get(ctx, key, w); err != nil {
		return err
	}
	if w.Status.Size == 0 {
		w.Status.Size = int(tokens.Add(1) + tokens.Add(2))
	}
	return r.Status().Update(ctx, w) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example\.com/op/internal/patchers\)$`
}

// A call whose result is used twice.
func (r *R) usedTwice(ctx context.Context, key client.ObjectKey) error {
	w := &v1.Widget{}
	if err := r.Get(ctx, key, w); err != nil {
		return err
	}
	if w.Status.Size == 0 {
		t := tokens.Add(1)
		w.Status.Size = int(t)
		w.Status.Ready = t > 2
	}
	return r.Status().Update(ctx, w) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example\.com/op/internal/patchers\)$`
}

// A value and its error: made once, a sync.OnceValues.
func (r *R) multi(ctx context.Context, key client.ObjectKey) error {
	w := &v1.Widget{}
	if err := r.Get(ctx, key, w); err != nil {
		return err
	}
	if w.Status.Size == 0 {
		n, err := names.Next()
		if err != nil {
			return err
		}
		w.Status.Size = n
	}
	return r.Status().Update(ctx, w) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example\.com/op/internal/patchers\)$`
}

// A generic method.
func (r *R) generic(ctx context.Context, key client.ObjectKey) error {
	w := &v1.Widget{}
	if err := r.Get(ctx, key, w); err != nil {
		return err
	}
	if w.Status.Size == 0 {
		w.Status.Size = sizes.Take(1)
	}
	return r.Status().Update(ctx, w) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example\.com/op/internal/patchers\)$`
}

// A value receiver's method whose body only reads: run per attempt.
func (r *R) valueRecv(ctx context.Context, key client.ObjectKey) error {
	w := &v1.Widget{}
	if err := r.Get(ctx, key, w); err != nil {
		return err
	}
	if w.Status.Size == 0 {
		w.Status.Size = names.Peek()
	}
	return r.Status().Update(ctx, w) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example\.com/op/internal/patchers\)$`
}

// A counter that is a field of the receiver.
func (r *R) field(ctx context.Context, key client.ObjectKey) error {
	w := &v1.Widget{}
	if err := r.Get(ctx, key, w); err != nil {
		return err
	}
	if w.Status.Size == 0 {
		w.Status.Size = int(r.counter.Add(1))
	}
	return r.Status().Update(ctx, w) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example\.com/op/internal/patchers\)$`
}

// A call given a local declared before the decision.
func (r *R) argBefore(ctx context.Context, key client.ObjectKey) error {
	w := &v1.Widget{}
	if err := r.Get(ctx, key, w); err != nil {
		return err
	}
	step := int64(len(w.Spec.Roles))
	if w.Status.Size == 0 {
		w.Status.Size = int(tokens.Add(step))
	}
	return r.Status().Update(ctx, w) // want `\(not moved to the patcher: .*the call tokens\.Add at line 141 would run again on each attempt \(Add is of sync/atomic, which changes its receiver on each call\), and it is given step, which the decision declares`
}

// A call given the object's spec.
func (r *R) argSpec(ctx context.Context, key client.ObjectKey) error {
	w := &v1.Widget{}
	if err := r.Get(ctx, key, w); err != nil {
		return err
	}
	if w.Status.Size == 0 {
		w.Status.Size = int(tokens.Add(int64(w.Spec.Size)))
	}
	return r.Status().Update(ctx, w) // want `\(not moved to the patcher: .*the call tokens\.Add at line 153 would run again on each attempt \(Add is of sync/atomic, which changes its receiver on each call\), and it is given w, whose status`
}

// A call in a deferred literal of the decision.
func (r *R) deferred(ctx context.Context, key client.ObjectKey) error {
	w := &v1.Widget{}
	if err := r.Get(ctx, key, w); err != nil {
		return err
	}
	if w.Status.Size == 0 {
		defer tokens.Add(1)
		w.Status.Size = 1
	}
	return r.Status().Update(ctx, w) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example\.com/op/internal/patchers\)$`
}

// A return err path in the decision.
func (r *R) returnErr(ctx context.Context, key client.ObjectKey) error {
	w := &v1.Widget{}
	if err := r.Get(ctx, key, w); err != nil {
		return err
	}
	if w.Status.Size == 0 {
		if len(w.Spec.Roles) == 0 {
			return errors.New("no roles")
		}
		w.Status.Size = int(tokens.Add(1))
	}
	return r.Status().Update(ctx, w) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example\.com/op/internal/patchers\)$`
}

// goto in the decision.
func (r *R) jump(ctx context.Context, key client.ObjectKey) error {
	w := &v1.Widget{}
	if err := r.Get(ctx, key, w); err != nil {
		return err
	}
	if w.Status.Size != 0 {
		goto done
	}
	w.Status.Size = int(tokens.Add(1))
done:
	return r.Status().Update(ctx, w) // want `\(not moved to the patcher: .*the function has a goto at line 193, which may jump over a patcher -fix declares`
}

// The named error set in the decision, a deferred write.
func (r *R) named(ctx context.Context, key client.ObjectKey) (retErr error) {
	w := &v1.Widget{}
	if err := r.Get(ctx, key, w); err != nil {
		return err
	}
	defer func() {
		retErr = errors.Join(retErr, r.Status().Update(ctx, w)) // want `\(not moved to the patcher: .*it sets retErr at line 211, declared outside it: Retry's function may run more than once`
	}()
	if w.Status.Size == 0 {
		w.Status.Size = int(tokens.Add(1))
		retErr = errors.New("sized")
	}
	return retErr
}

// A local declared after the defer, given to the call.
func (r *R) afterDefer(ctx context.Context, key client.ObjectKey) (retErr error) {
	w := &v1.Widget{}
	if err := r.Get(ctx, key, w); err != nil {
		return err
	}
	defer func() {
		retErr = errors.Join(retErr, r.Status().Update(ctx, w)) // want `\(not moved to the patcher: .*the call tokens\.Add at line 227 would run again on each attempt \(Add is of sync/atomic, which changes its receiver on each call\), and it is given step, which the decision declares`
	}()
	step := int64(len(w.Spec.Roles))
	if w.Status.Size == 0 {
		w.Status.Size = int(tokens.Add(step))
	}
	return nil
}

type notes struct{ n []string }

func (n *notes) Note(s string) { n.n = append(n.n, s) }

var noted notes
