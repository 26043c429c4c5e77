// Package migratereread: the pointer form of a re-read (issue 80), the
// object held as a pointer (order := &v1.Widget{}), read, written, read
// again with Get into the object it points to, and a write of it in a
// function literal that runs after the re-read. The Get read into that
// object, which the literal's write then held; a Fetch of a patcher of
// its own (order = orderPatcher2.Object()) left the literal flushing the
// first patcher, over the object order no longer points to: nothing
// sent, the literal's write lost. With Fetch<Kind>StatusPatcherInto the
// re-read reads into the object order points to, assigned to the first
// patcher on success: every later use, the literal's included, flushes
// the patcher of the last read.
package migratereread

import (
	"context"

	v1 "example.com/op/api/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

type R struct {
	client.Client
}

// A deferred literal writes the status after the re-read.
func (r *R) deferLiteral(ctx context.Context, req ctrl.Request) (retErr error) {
	order := &v1.Widget{}
	if err := r.Get(ctx, req.NamespacedName, order); err != nil {
		return err
	}
	defer func() {
		if retErr != nil {
			order.Status.Ready = false
			if err := r.Status().Update(ctx, order); err != nil { // want `^handwritten status write to Widget`
				retErr = err
			}
		}
	}()
	order.Status.Ready = true
	if err := r.Status().Update(ctx, order); err != nil { // want `^handwritten status write to Widget`
		return err
	}
	if err := r.Get(ctx, req.NamespacedName, order); err != nil {
		return err
	}
	order.Status.Size = 2
	return r.Status().Update(ctx, order) // want `^handwritten status write to Widget`
}

// A closure called after the re-read: its write stays, and the others.
func (r *R) closure(ctx context.Context, req ctrl.Request) error {
	order := &v1.Widget{}
	if err := r.Get(ctx, req.NamespacedName, order); err != nil {
		return err
	}
	fail := func() error {
		order.Status.Ready = false
		return r.Status().Update(ctx, order) // want `^handwritten status write to Widget.*not read with Get in the function literal at line 57`
	}
	order.Status.Ready = true
	if err := r.Status().Update(ctx, order); err != nil { // want `^handwritten status write to Widget.*not read with Get in the function literal at line 57`
		return err
	}
	if err := r.Get(ctx, req.NamespacedName, order); err != nil {
		return err
	}
	if order.Status.Size > 3 {
		return fail()
	}
	order.Status.Size = 2
	return r.Status().Update(ctx, order) // want `^handwritten status write to Widget.*not read with Get in the function literal at line 57`
}

// A go statement's literal writes after the re-read (the channel orders
// it): as the closure's, its write stays (no Get of order in the
// literal), and the function's writes of order with it.
func (r *R) goStmt(ctx context.Context, req ctrl.Request) error {
	order := &v1.Widget{}
	if err := r.Get(ctx, req.NamespacedName, order); err != nil {
		return err
	}
	start, done := make(chan struct{}), make(chan error, 1)
	go func() {
		<-start
		order.Status.Size = 3
		done <- r.Status().Update(ctx, order) // want `^handwritten status write to Widget.*not read with Get in the function literal at line 84`
	}()
	order.Status.Ready = true
	if err := r.Status().Update(ctx, order); err != nil { // want `^handwritten status write to Widget.*not read with Get in the function literal at line 84`
		return err
	}
	if err := r.Get(ctx, req.NamespacedName, order); err != nil {
		return err
	}
	close(start)
	return <-done
}

// order points to another object before the re-read: the object the
// deferred literal writes is not the one the first patcher is over, so
// the re-read stays a Get and the writes stay.
func (r *R) reassigned(ctx context.Context, req ctrl.Request) (retErr error) {
	order := &v1.Widget{}
	if err := r.Get(ctx, req.NamespacedName, order); err != nil {
		return err
	}
	defer func() {
		if retErr != nil {
			order.Status.Ready = false
			if err := r.Status().Update(ctx, order); err != nil { // want `^handwritten status write to Widget.*order is reassigned at line 120`
				retErr = err
			}
		}
	}()
	order.Status.Ready = true
	if err := r.Status().Update(ctx, order); err != nil { // want `^handwritten status write to Widget.*order is reassigned at line 120`
		return err
	}
	order = &v1.Widget{}
	if err := r.Get(ctx, req.NamespacedName, order); err != nil {
		return err
	}
	order.Status.Size = 2
	return r.Status().Update(ctx, order) // want `^handwritten status write to Widget.*order is reassigned at line 120`
}

// A defer statement's own call holds the first patcher it was given
// (defer orderPatcher.Flush(ctx)), over the object order points to: its
// base is older than the re-read. The re-read stays a Get and the writes
// stay, the reason naming the defer's line.
func (r *R) deferCall(ctx context.Context, req ctrl.Request) error {
	order := &v1.Widget{}
	if err := r.Get(ctx, req.NamespacedName, order); err != nil {
		return err
	}
	defer r.Status().Update(ctx, order) // want `^handwritten status write to Widget.*the write of order at line 137 takes the patcher of its read at line 134 when its defer statement runs, before the re-read with Get at line 138`
	if err := r.Get(ctx, req.NamespacedName, order); err != nil {
		return err
	}
	order.Status.Size = 2
	return r.Status().Update(ctx, order) // want `^handwritten status write to Widget.*the write of order at line 137 takes the patcher of its read at line 134 when its defer statement runs, before the re-read with Get at line 138`
}

// The re-read in a branch, the write after it flushing the first read's
// patcher, which a deferred literal flushes too.
func (r *R) branchDeferred(ctx context.Context, req ctrl.Request) (retErr error) {
	order := &v1.Widget{}
	if err := r.Get(ctx, req.NamespacedName, order); err != nil {
		return err
	}
	defer func() {
		if retErr != nil {
			order.Status.Ready = false
			if err := r.Status().Update(ctx, order); err != nil { // want `^handwritten status write to Widget`
				retErr = err
			}
		}
	}()
	order.Status.Ready = true
	if err := r.Status().Update(ctx, order); err != nil { // want `^handwritten status write to Widget`
		return err
	}
	if req.Name == "x" {
		if err := r.Get(ctx, req.NamespacedName, order); err != nil {
			return err
		}
	}
	order.Status.Size = 2
	return r.Status().Update(ctx, order) // want `^handwritten status write to Widget`
}

// kubebuilder's tutorial comment above its re-Get stays as it is above
// the Fetch that replaces the Get: the Fetch re-reads too, so the
// comment is still true.
func (r *R) tutorialComment(ctx context.Context, req ctrl.Request) (retErr error) {
	order := &v1.Widget{}
	if err := r.Get(ctx, req.NamespacedName, order); err != nil {
		return err
	}
	defer func() {
		if retErr != nil {
			order.Status.Ready = false
			if err := r.Status().Update(ctx, order); err != nil { // want `^handwritten status write to Widget`
				retErr = err
			}
		}
	}()
	order.Status.Ready = true
	if err := r.Status().Update(ctx, order); err != nil { // want `^handwritten status write to Widget`
		return err
	}
	// Let's re-fetch the Widget after updating the status, so that we
	// avoid "the object has been modified, please apply your changes to
	// the latest version and try again".
	if err := r.Get(ctx, req.NamespacedName, order); err != nil {
		return err
	}
	order.Status.Size = 2
	return r.Status().Update(ctx, order) // want `^handwritten status write to Widget`
}
