package patcher

import (
	"fmt"

	"sigs.k8s.io/controller-runtime/pkg/client"
)

// snapshot is what a Patcher compares: the caller's object, its base (the
// last state known to be on the server) and the diff between them, in
// status (status.go, fielddiff.go) and outside it (nonstatus.go). It sends
// nothing and reads nothing: the Patcher, which embeds it, decides when the
// base moves (setBase) and what a difference leads to.
type snapshot[T client.Object] struct {
	kind           string
	status         StatusFunc[T]
	obj            T                 // the caller's object, mutated in memory
	base           T                 // the last state known to be on the server
	baseStatusJSON []byte            // lazily marshalled status of base
	fieldDiff      fieldDiffState[T] // the generated status diff (WithFieldDiff), if any
}

// setBase records obj's current state as the state on the server.
func (p *snapshot[T]) setBase(obj T) {
	p.base = obj.DeepCopyObject().(T)
	p.baseStatusJSON = nil
}

// id names the object in errors and logs: "Kind namespace/name".
func (p *snapshot[T]) id() string {
	if isNil(p.obj) {
		return p.kind
	}
	return fmt.Sprintf("%s %s", p.kind, client.ObjectKeyFromObject(p.obj))
}
