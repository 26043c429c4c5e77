package advonce

import (
	"context"
	"errors"

	v1 "example.com/op/api/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// A return err inside the deferred write's decision.
func (r *R) deferReturn(ctx context.Context, key client.ObjectKey) (retErr error) {
	w := &v1.Widget{}
	if err := r.Get(ctx, key, w); err != nil {
		return err
	}
	defer func() {
		retErr = errors.Join(retErr, r.Status().Update(ctx, w)) // want `\(not moved to the patcher: .*the decision is not the function's last statements before its return: the statement at line 20 may return or jump; make the patcher`
	}()
	if w.Status.Size == 0 {
		if len(w.Spec.Roles) == 0 {
			return errors.New("no roles")
		}
		w.Status.Size = int(tokens.Add(1))
	}
	return nil
}

// A local named tokensAdd before the defer: the OnceValue in the
// deferred literal takes another name.
func (r *R) deferCollide(ctx context.Context, key client.ObjectKey) (retErr error) {
	w := &v1.Widget{}
	if err := r.Get(ctx, key, w); err != nil {
		return err
	}
	tokensAdd := func() int64 { return 0 }
	defer func() {
		retErr = errors.Join(retErr, r.Status().Update(ctx, w)) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example\.com/op/internal/patchers\)$`
	}()
	if w.Status.Size == 0 {
		w.Status.Size = int(tokens.Add(1) + tokensAdd())
	}
	return nil
}

// A result used twice and a OnceFunc in one deferred decision.
func (r *R) deferTwo(ctx context.Context, key client.ObjectKey) (retErr error) {
	w := &v1.Widget{}
	if err := r.Get(ctx, key, w); err != nil {
		return err
	}
	defer func() {
		retErr = errors.Join(retErr, r.Status().Update(ctx, w)) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example\.com/op/internal/patchers\)$`
	}()
	if !w.Status.Ready {
		t := tokens.Add(1)
		w.Status.Size = int(t)
		w.Status.Ready = t > 1
		noted.Note("ready")
	}
	return nil
}

var lastID int

// nextID hands out an id, as tokens.Add does: its body sets a package
// variable, so it is made once (at adaadbc a function was never made
// once, and ran again on each attempt).
func nextID() int {
	lastID++
	return lastID
}

// A package function handing out an id: made once.
func (r *R) deferFunc(ctx context.Context, key client.ObjectKey) (retErr error) {
	w := &v1.Widget{}
	if err := r.Get(ctx, key, w); err != nil {
		return err
	}
	defer func() {
		retErr = errors.Join(retErr, r.Status().Update(ctx, w)) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example\.com/op/internal/patchers\)$`
	}()
	if w.Status.Size == 0 {
		w.Status.Size = nextID()
	}
	return nil
}
