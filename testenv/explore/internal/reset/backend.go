package reset

import (
	"context"
	"fmt"
	"strconv"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/fake"
)

// Backend runs schedules, each from a clean state: on API servers the
// reset cleans (Server), or on a new fake client each (Fake). The
// explorer's Backend is one (its backend.go).
type Backend interface {
	// Begin returns a client on a clean state; left are the objects the
	// previous schedule's book held, each as it last saw it: after Begin,
	// none of them exists.
	Begin(ctx context.Context, left []Leftover) (client.Client, error)
	// Create makes obj, one of the scenario's objects, through c, the
	// client Begin returned; stored is the version the server stored, as
	// a read would return it, or nil where the answer is not one (the
	// explorer then reads it).
	Create(ctx context.Context, c client.Client, obj client.Object) (stored *unstructured.Unstructured, err error)
	Scheme() *runtime.Scheme
	// Revision is the server's revision now, as a list of kind through
	// c, the client Begin returned, answers it; 0 where the backend
	// numbers no revisions (Fake: each object's resourceVersions its
	// own).
	Revision(ctx context.Context, c client.Client, kind schema.GroupVersionKind) (uint64, error)
	// Worlds are the backend's independent worlds, each a Backend of
	// one: Options.Parallel runs one schedule at a time in each.
	Worlds() []Backend
}

// Server runs schedules on the API server C reaches, resetting it before
// each (All); each server of More is a world of its own.
type Server struct {
	C    client.Client
	More []*Server
}

func (b *Server) Worlds() []Backend {
	out := []Backend{&Server{C: b.C}}
	for _, m := range b.More {
		out = append(out, m)
	}
	return out
}

func (b *Server) Scheme() *runtime.Scheme { return b.C.Scheme() }

func (b *Server) Begin(ctx context.Context, left []Leftover) (client.Client, error) {
	if err := All(ctx, b.C, left); err != nil {
		return nil, err
	}
	return b.C, nil
}

func (b *Server) Revision(ctx context.Context, c client.Client, kind schema.GroupVersionKind) (uint64, error) {
	l := &unstructured.UnstructuredList{}
	l.SetGroupVersionKind(kind.GroupVersion().WithKind(kind.Kind + "List"))
	if err := c.List(ctx, l, client.Limit(1)); err != nil {
		return 0, fmt.Errorf("explore: the server's revision, listing %s: %w", kind.Kind, err)
	}
	rv, err := strconv.ParseUint(l.GetResourceVersion(), 10, 64)
	if err != nil {
		return 0, fmt.Errorf("explore: the server's revision, listing %s: resourceVersion %q: %w", kind.Kind, l.GetResourceVersion(), err)
	}
	return rv, nil
}

func (b *Server) Create(ctx context.Context, c client.Client, obj client.Object) (*unstructured.Unstructured, error) {
	return Create(ctx, c, obj)
}

// Fake runs schedules on a new controller-runtime fake client each, of
// scheme S, with the status subresource for the kinds of Status; N is
// its worlds (0: one).
type Fake struct {
	S      *runtime.Scheme
	Status []client.Object
	N      int
}

func (b *Fake) Scheme() *runtime.Scheme { return b.S }

// Worlds: one unless N asks for more. A new fake client per schedule
// would allow any number, but the scenario's closures would then run
// concurrently, and a scenario may keep state across them (a map New
// resets and Invariant reads): more than one world is asked for, as with
// Server.
func (b *Fake) Worlds() []Backend {
	out := []Backend{b}
	for i := 1; i < b.N; i++ {
		out = append(out, b)
	}
	return out
}

func (b *Fake) Begin(context.Context, []Leftover) (client.Client, error) {
	return fake.NewClientBuilder().WithScheme(b.S).WithStatusSubresource(b.Status...).Build(), nil
}

func (b *Fake) Revision(context.Context, client.Client, schema.GroupVersionKind) (uint64, error) {
	return 0, nil
}

// Create: the fake client's answer is obj as sent, with a few fields set.
func (b *Fake) Create(ctx context.Context, c client.Client, obj client.Object) (*unstructured.Unstructured, error) {
	obj = obj.DeepCopyObject().(client.Object)
	obj.SetResourceVersion("")
	return nil, c.Create(ctx, obj)
}
