package migrateacross

import v1 "example.com/op/api/v1"

// bump, in another file of the package, changes the spec.
func bump(w *v1.Widget) { w.Spec.Size++ }
