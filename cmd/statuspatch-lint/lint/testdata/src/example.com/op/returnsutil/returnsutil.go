// Package returnsutil returns references into the object it is given,
// for another package to follow (migratereturned): lws's
// controllerutils.GetPVCApplyConfiguration.
package returnsutil

import v1 "example.com/op/api/v1"

// FirstRole returns the address of a range copy of the object's roles,
// whose Scaling is the spec's (ParamsFact returns[0:[0]]).
func FirstRole(w *v1.Widget, prefix string) (*v1.Role, bool) {
	for _, r := range w.Spec.Roles {
		if len(r.Name) >= len(prefix) && r.Name[:len(prefix)] == prefix {
			return &r, true
		}
	}
	return nil, false
}
