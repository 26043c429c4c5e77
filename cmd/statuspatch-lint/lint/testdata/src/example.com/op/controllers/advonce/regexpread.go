package advonce

import (
	"context"
	"regexp"

	v1 "example.com/op/api/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

var validName = regexp.MustCompile(`^[a-z]+$`)

// A method of a package variable that only reads (a compiled regexp),
// given the object's name: run again by each attempt, it changes
// nothing, so the decision moves into Retry as it is.
func (r *R) pureRead(ctx context.Context, key client.ObjectKey) error {
	w := &v1.Widget{}
	if err := r.Get(ctx, key, w); err != nil {
		return err
	}
	if w.Status.Size == 0 && validName.MatchString(w.Name) {
		w.Status.Size = 1
	}
	return r.Status().Update(ctx, w) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example\.com/op/internal/patchers\)$`
}
