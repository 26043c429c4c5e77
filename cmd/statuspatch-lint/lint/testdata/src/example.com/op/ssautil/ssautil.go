// Package ssautil is trust-manager's ssa_client: a client.Patch of its
// own that applies the bytes it holds.
package ssautil

import (
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

const FieldManager = client.FieldOwner("widget-controller")

type ApplyPatch struct {
	Patch []byte
}

func (p ApplyPatch) Data(_ client.Object) ([]byte, error) { return p.Patch, nil } // want Data:`^statusOnly\[0\] recvField:Patch$`

func (p ApplyPatch) Type() types.PatchType { return types.ApplyPatchType } // want Type:`^const:application/apply-patch\+yaml$`

// OtherPatch's Data returns bytes it makes, not the field it holds: no
// apply of them is read.
type OtherPatch struct {
	Patch []byte
}

func (p OtherPatch) Data(_ client.Object) ([]byte, error) { return append(p.Patch, '\n'), nil } // want Data:`^statusOnly\[0\]$`

func (p OtherPatch) Type() types.PatchType { return types.ApplyPatchType } // want Type:`^const:application/apply-patch\+yaml$`
