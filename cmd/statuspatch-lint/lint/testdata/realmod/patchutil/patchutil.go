// Package patchutil builds a patch for another package of the module: its
// verdict reaches the caller as a fact (also under go vet).
package patchutil

import "sigs.k8s.io/controller-runtime/pkg/client"

// NewPatch is a blind patch of o.
func NewPatch(o client.Object) client.Patch { return client.MergeFrom(o) }
