// Package holdutil holds a Widget in a field of a struct of a concrete
// type, as lws's disaggregatedsetutils.CreateParams holds its
// DisaggregatedSet: the controllers that fill one hand it to a method of
// their own package (migrateheldstruct).
package holdutil

import v1 "example.com/op/api/v1"

// CreateParams is what a child is made from.
type CreateParams struct {
	Widget   *v1.Widget
	Role     string
	Replicas int
	Labels   map[string]string
}
