// Package rolesutil reads a Widget's roles the way lws's
// disaggregatedset.ComputeRevision does, from a package of its own: its
// facts (ParamsFact's readOnly) list the parameters holding references
// that a function only reads, so -fix follows a reference into the
// object passed there.
package rolesutil

import (
	"encoding/json"

	v1 "example.com/op/api/v1"
)

type roleTemplate struct {
	Name    string      `json:"name"`
	Scaling *v1.Scaling `json:"scaling"`
}

// ComputeRevision copies each role by range value into a literal, appends
// it to a slice it made, and only json.Marshal reads the slice.
func ComputeRevision(roles []v1.Role) string { // want ComputeRevision:`^readOnly\[0\]$`
	templates := make([]roleTemplate, 0, len(roles))
	for _, role := range roles {
		templates = append(templates, roleTemplate{Name: role.Name, Scaling: role.Scaling})
	}
	b, err := json.Marshal(templates)
	if err != nil {
		return ""
	}
	return string(b)
}

// Count reads both the object and the roles it is given.
func Count(w *v1.Widget, roles []v1.Role) int { // want Count:`^statusOnly\[0\] readOnly\[1\]$`
	return w.Spec.Size + len(roles)
}

// Renamed changes the range value's own Name, a copy: it reads the roles.
func Renamed(roles []v1.Role) int { // want Renamed:`^readOnly\[0\]$`
	n := 0
	for _, role := range roles {
		role.Name = "renamed"
		n += len(role.Name)
	}
	return n
}

// Stamp writes through the range value: its Scaling is the object's. No
// fact.
func Stamp(roles []v1.Role) {
	for _, role := range roles {
		role.Scaling.Mode = "stamped"
	}
}

// Sink takes what Hand gives it; it may be any function.
var Sink func(any)

// Hand hands each literal to a function value, not followed: no fact.
func Hand(roles []v1.Role) {
	for _, role := range roles {
		Sink(roleTemplate{Name: role.Name, Scaling: role.Scaling})
	}
}

var kept []roleTemplate

// Keep stores each literal in a package variable: no fact.
func Keep(roles []v1.Role) {
	for _, role := range roles {
		kept = append(kept, roleTemplate{Name: role.Name, Scaling: role.Scaling})
	}
}

// revision is unexported: a caller in the package follows its parameter
// itself, so it has no fact.
func revision(roles []v1.Role) int { return len(roles) }

// Revisions calls revision, to use it.
func Revisions(n int) int { return revision(make([]v1.Role, n)) }
