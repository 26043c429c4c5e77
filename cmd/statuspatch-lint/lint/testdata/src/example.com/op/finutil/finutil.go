// Package finutil: a finalizer helper of another package, which writes
// the object it is given through the client it is given.
package finutil

import (
	"context"

	"sigs.k8s.io/controller-runtime/pkg/client"
)

// Ensure adds the finalizer and writes the object.
func Ensure(ctx context.Context, c client.Client, obj client.Object, name string) error {
	obj.SetFinalizers(append(obj.GetFinalizers(), name))
	return c.Update(ctx, obj)
}

// Has reads the object only.
func Has(obj client.Object, name string) bool {
	for _, f := range obj.GetFinalizers() {
		if f == name {
			return true
		}
	}
	return false
}
