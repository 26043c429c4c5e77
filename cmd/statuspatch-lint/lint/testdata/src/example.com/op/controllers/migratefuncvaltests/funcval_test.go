package migratefuncvaltests

import v1 "example.com/op/api/v1"

// A test swaps in an applier that changes the spec: only the test binary
// runs it.
func init() {
	appliers["spec"] = func(w *v1.Widget) error {
		w.Spec.Size = 2
		return nil
	}
}
