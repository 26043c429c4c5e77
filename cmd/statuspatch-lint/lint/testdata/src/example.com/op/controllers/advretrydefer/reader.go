package advretrydefer

import (
	"context"
	"errors"
	"regexp"

	v1 "example.com/op/api/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

var validName = regexp.MustCompile(`^[a-z]+$`)

// An early return past the defer keeps the write; the decision's call
// of a compiled regexp only reads, so the reason names no call to keep
// once (at adaadbc it said MatchString runs again on each attempt).
func (r *R) earlyReader(ctx context.Context, key client.ObjectKey, skip bool) (retErr error) {
	w := &v1.Widget{}
	if err := r.Get(ctx, key, w); err != nil {
		return err
	}
	defer func() {
		retErr = errors.Join(retErr, r.Status().Update(ctx, w)) // want `the statement at line 25 may return or jump; make the patcher after the read, keep the Flush in the defer, and move the decision into wPatcher.Retry's function by hand\)$`
	}()
	if skip {
		return nil
	}
	if !w.Status.Ready && validName.MatchString(w.Name) {
		w.Status.Ready = true
	}
	return nil
}
