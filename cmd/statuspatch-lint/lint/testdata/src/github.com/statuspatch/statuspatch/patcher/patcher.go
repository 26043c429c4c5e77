// Package patcher is a stub of the statuspatch runtime: its own status
// writes are the sanctioned ones and are never reported.
package patcher

import (
	"context"

	"sigs.k8s.io/controller-runtime/pkg/client"
)

type Option interface{}

type StatusFunc[T client.Object] func(obj T) any

type Patcher[T client.Object] struct {
	c    client.Client
	obj  T
	base T
}

func NewWithStatus[T client.Object](c client.Client, obj T, status StatusFunc[T], opts ...Option) *Patcher[T] {
	return &Patcher[T]{c: c, obj: obj}
}

func (p *Patcher[T]) Object() T { return p.obj }

func (p *Patcher[T]) Flush(ctx context.Context) error {
	return p.c.Status().Patch(ctx, p.obj, client.MergeFromWithOptions(p.base, client.MergeFromWithOptimisticLock{}))
}

func (p *Patcher[T]) Retry(ctx context.Context, mutate func(T) error) error {
	if err := mutate(p.obj); err != nil {
		return err
	}
	return p.c.Status().Update(ctx, p.obj)
}

func (p *Patcher[T]) ApplyStatus(status any) error { return nil }

func (p *Patcher[T]) HasChanges() bool { return true }
