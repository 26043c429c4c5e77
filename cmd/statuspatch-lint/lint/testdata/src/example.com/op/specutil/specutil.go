// Package specutil reads Widgets without the client: the analyzer exports
// its facts all the same (an operator's own package), so -fix follows the
// object into it.
package specutil

import v1 "example.com/op/api/v1"

// Size reads the spec.
func Size(w *v1.Widget) int { return w.Spec.Size }
