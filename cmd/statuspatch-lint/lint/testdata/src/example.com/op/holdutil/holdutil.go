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

// Describe reads what p holds.
func Describe(p CreateParams) string { // want Describe:`^readOnly\[0\] heldStruct0:Widget$`
	return p.Widget.Namespace + "/" + p.Widget.Name + "-" + p.Role
}

// Grow changes the spec of what p holds: a status subresource write
// leaves that unsent.
func Grow(p *CreateParams) { // want Grow:`^heldStruct0:Widget~$`
	p.Widget.Spec.Size += p.Replicas
}

// Rename changes the name of what p holds: its identity.
func Rename(p *CreateParams) { // want Rename:`^heldStruct0:Widget\?$`
	p.Widget.Name = p.Widget.Name + "-" + p.Role
}
