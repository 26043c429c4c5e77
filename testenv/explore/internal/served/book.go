// Package served is the explorer's API served in process: the rest.Config
// and HTTP client a manager's GetConfig and GetHTTPClient hand to what
// Setup builds (a second cache, a client), answered from the explorer's
// book of versions through the process's recording client, with the
// discovery a RESTMapper asks and the watches a cache's informers open.
//
// It reads the book only through Book; the explorer's step model (what a
// step saw, what it held) stays with the explorer, which gets the
// watches from Sync.
package served

import (
	"context"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// Book is what the served API reads of the explorer's book of versions.
type Book interface {
	// Newest is every object of kind gvk the book holds, in the book's
	// order, each at its newest version.
	Newest(gvk schema.GroupVersionKind) []Object
	// Crashed reports that err is the refusal of a process that crashed.
	Crashed(err error) bool
	// ListUnrecorded lists through the server, unrecorded: for an
	// informer a crashed process starts, which would otherwise wait for
	// its list forever.
	ListUnrecorded(ctx context.Context, list *unstructured.UnstructuredList, opts ...client.ListOption) error
}

// Object is one object of the book at its newest version.
type Object struct {
	NN     types.NamespacedName
	Name   string         // as the explorer names it in errors
	Object map[string]any // nil: gone
	RV     string         // the version's resourceVersion
}

// Rep is the kind of object an informer holds.
type Rep int

const (
	TypedRep Rep = iota
	UnstructuredRep
	MetadataRep
	Reps // how many
)

func (r Rep) String() string {
	switch r {
	case UnstructuredRep:
		return "unstructured"
	case MetadataRep:
		return "metadata-only"
	}
	return ""
}
