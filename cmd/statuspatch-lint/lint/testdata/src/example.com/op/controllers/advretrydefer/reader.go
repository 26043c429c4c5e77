package advretrydefer

import (
	"context"
	"errors"
	"regexp"

	v1 "example.com/op/api/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

var validName = regexp.MustCompile(`^[a-z]+$`)

// An early return past the defer; the decision's call of a compiled
// regexp only reads, so it runs again in Retry, not made once (at
// adaadbc the kept reason said MatchString runs again on each attempt;
// since issue 80's Ship the decision is a Retry at its place).
func (r *R) earlyReader(ctx context.Context, key client.ObjectKey, skip bool) (retErr error) {
	w := &v1.Widget{}
	if err := r.Get(ctx, key, w); err != nil {
		return err
	}
	defer func() {
		retErr = errors.Join(retErr, r.Status().Update(ctx, w)) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example\.com/op/internal/patchers\)$`
	}()
	if skip {
		return nil
	}
	if !w.Status.Ready && validName.MatchString(w.Name) {
		w.Status.Ready = true
	}
	return nil
}
