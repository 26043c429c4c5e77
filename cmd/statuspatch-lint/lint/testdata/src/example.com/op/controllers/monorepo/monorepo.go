// Package monorepo: two operators of one repository share an API, each
// with its own generated patchers under its internal/ directory. The
// patcher named is the one this package may import (Go's rule for
// internal/), not the first by path: at dc177ff8 -fix imported
// example.com/a/internal/patchers here, which does not compile.
package monorepo

import (
	"context"

	v1 "example.com/op/api/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

func write(ctx context.Context, c client.Client, w *v1.Widget) error {
	return c.Status().Update(ctx, w) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example.com/op/controllers/internal/patchers\) \(not moved`
}
