package advonce

import (
	"context"
	"fmt"
	"strings"

	v1 "example.com/op/api/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// Issue 80: a call has a side effect when its body, in this package,
// shows one (a field set through a pointer receiver, a package variable
// set, a call of one that does); otherwise it only reads, and each
// Retry attempt runs it again, as retry.RetryOnConflict's closure did.

type queue struct {
	items []string
	at    int
}

// Peek only reads through its pointer receiver.
func (q *queue) Peek() string {
	if q.at >= len(q.items) {
		return ""
	}
	return q.items[q.at]
}

// Pop sets a field through its pointer receiver.
func (q *queue) Pop() string {
	it := q.Peek()
	q.at++
	return it
}

var roles queue

// token hands out through nextID (defer.go), which it calls.
func token(prefix string) string { return fmt.Sprintf("%s-%d", prefix, nextID()) }

// title only reads.
func title(s string) string { return strings.ToUpper(s) }

// A pointer-receiver method of the package whose body only reads: run
// per attempt, the decision moves into Retry as it is.
func (r *R) peeked(ctx context.Context, key client.ObjectKey) error {
	w := &v1.Widget{}
	if err := r.Get(ctx, key, w); err != nil {
		return err
	}
	if w.Status.Size == 0 && roles.Peek() != "" {
		w.Status.Size = 1
	}
	return r.Status().Update(ctx, w) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example\.com/op/internal/patchers\)$`
}

// One that sets its receiver's field: made once.
func (r *R) popped(ctx context.Context, key client.ObjectKey) error {
	w := &v1.Widget{}
	if err := r.Get(ctx, key, w); err != nil {
		return err
	}
	if w.Status.Size == 0 {
		w.Status.Size = len(roles.Pop())
	}
	return r.Status().Update(ctx, w) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example\.com/op/internal/patchers\)$`
}

// A package function that sets a package variable, and one that calls
// it: each made once; one that only reads runs per attempt.
func (r *R) numbered(ctx context.Context, key client.ObjectKey) error {
	w := &v1.Widget{}
	if err := r.Get(ctx, key, w); err != nil {
		return err
	}
	if w.Status.Size == 0 {
		w.Status.Size = nextID()
		w.Status.Ready = title(token("w")) != ""
	}
	return r.Status().Update(ctx, w) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example\.com/op/internal/patchers\)$`
}

// A package function handing out a number, given the object: it would
// run again on each attempt, and cannot be made once apart from it.
func (r *R) numberedFor(ctx context.Context, key client.ObjectKey) error {
	w := &v1.Widget{}
	if err := r.Get(ctx, key, w); err != nil {
		return err
	}
	if w.Status.Size == 0 {
		w.Status.Ready = token(w.Name) != ""
	}
	return r.Status().Update(ctx, w) // want `\(not moved to the patcher: .*the call token at line 92 would run again on each attempt \(token calls nextID at line 40, which sets lastID at defer\.go:70\), and it is given w, whose status`
}

type idSource interface{ Next() int }

var ids idSource

var newName func() string

// An interface's method and a function value, whose bodies are not
// seen: taken as side effects, made once.
func (r *R) unseen(ctx context.Context, key client.ObjectKey) error {
	w := &v1.Widget{}
	if err := r.Get(ctx, key, w); err != nil {
		return err
	}
	if w.Status.Size == 0 {
		w.Status.Size = ids.Next()
		w.Status.Ready = newName() != ""
	}
	return r.Status().Update(ctx, w) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example\.com/op/internal/patchers\)$`
}
