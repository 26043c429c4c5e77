package patcher

import (
	"context"
	"fmt"
	"reflect"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"sigs.k8s.io/controller-runtime/pkg/log"
)

// Retry runs mutate on the object and flushes. On a Conflict it re-reads the
// object through the API reader, makes the fresh object the new base, runs
// mutate again on the fresh state and flushes again, sleeping a jittered,
// growing backoff in between (DefaultBackoff unless WithBackoff was given).
//
// mutate must decide from the object it is given, not from state captured
// before: on a retry it sees what the other writer wrote. Its own error is
// returned unchanged and nothing is written. When every attempt conflicted
// the error matches ErrRetryExhausted and apierrors.IsConflict. Retry stops
// when ctx is done.
func (p *Patcher[T]) Retry(ctx context.Context, mutate func(T) error) error {
	if err := p.Err(); err != nil {
		return err
	}
	if mutate == nil {
		return fmt.Errorf("statuspatch: %s: Retry with a nil mutate function", p.id())
	}
	backoff := p.opts.Backoff
	maxAttempts := max(backoff.Steps, 1)
	for attempt := 1; ; attempt++ {
		if err := mutate(p.obj); err != nil {
			return err
		}
		err := p.Flush(ctx)
		if err == nil || !apierrors.IsConflict(err) {
			if err == nil {
				p.metrics.observeAttempts(p.kind, attempt)
			}
			return err
		}
		if attempt >= maxAttempts {
			p.metrics.observeAttempts(p.kind, attempt)
			return &RetryExhaustedError{Object: p.id(), Attempts: attempt, Last: err}
		}
		log.FromContext(ctx).V(1).Info("retrying status write on fresh state", "kind", p.kind, "attempt", attempt)
		if err := sleep(ctx, backoff.Step()); err != nil {
			return fmt.Errorf("statuspatch: %s: retry after %d attempts: %w", p.id(), attempt, err)
		}
		if err := p.refresh(ctx); err != nil {
			return err
		}
	}
}

// refresh replaces the object, in place so the caller's pointer stays valid,
// with a fresh read through the API reader, and makes it the base.
func (p *Patcher[T]) refresh(ctx context.Context) error {
	fresh, err := p.read(ctx)
	if err != nil {
		return err
	}
	reflect.ValueOf(p.obj).Elem().Set(reflect.ValueOf(fresh).Elem())
	p.setBase(p.obj)
	return nil
}

func sleep(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return context.Cause(ctx)
	case <-t.C:
		return nil
	}
}
