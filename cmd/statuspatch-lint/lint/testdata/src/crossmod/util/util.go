// Package util builds patches for the controllers of the same module.
package util

import (
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

func NewPatch(o client.Object) client.Patch { return client.MergeFrom(o) } // want NewPatch:`^patch\(0: blind: client.MergeFrom without optimistic lock\)$` NewPatch:"why"

func NewLockedPatch(o client.Object) client.Patch { // want NewLockedPatch:`^patch\(0: optimistic: MergeFromWithOptimisticLock\)$` NewLockedPatch:"why"
	return client.MergeFromWithOptions(o, client.MergeFromWithOptimisticLock{})
}

func PatchOrError(o client.Object) (client.Patch, error) { // want PatchOrError:`^patch\(0: blind: ` PatchOrError:"why"
	if o == nil {
		return nil, nil
	}
	return client.MergeFrom(o), nil
}

// One blind path makes the result blind.
func Either(o client.Object, lock bool) client.Patch { // want Either:`^patch\(0: blind: ` Either:"why"
	if lock {
		return NewLockedPatch(o)
	}
	return client.MergeFrom(o)
}

func Raw(data []byte) client.Patch { return client.RawPatch(types.MergePatchType, data) } // want Raw:`^patch\(0: unresolved: client.RawPatch\)$`

type Helper struct{}

func (Helper) Locked(o client.Object) client.Patch { return NewLockedPatch(o) } // want Locked:`^patch\(0: optimistic: ` Locked:"why"

// Chained through another package of the module.
func Reexported(o client.Object) client.Patch { return NewPatch(o) } // want Reexported:`^patch\(0: blind: ` Reexported:"why"
