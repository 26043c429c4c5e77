package explore

import (
	"context"
	"strconv"

	"github.com/statuspatch/statuspatch/testenv/explore/internal/reset"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// Backend runs the schedules. Every schedule starts from a clean state.
type Backend interface {
	// begin returns a client on a clean state; left are the objects
	// the previous schedule's book held, each as it last saw it: after
	// begin, none of them exists (internal/reset).
	begin(ctx context.Context, left []leftover) (client.Client, error)
	// create makes obj, one of the scenario's objects, through c, the
	// client begin returned; stored is the version the server stored, as
	// a read would return it, or nil where the answer is not one (the
	// explorer then reads it).
	create(ctx context.Context, c client.Client, obj client.Object) (stored *unstructured.Unstructured, err error)
	scheme() *runtime.Scheme
	// revision is the server's revision now, as a list of kind through
	// c answers it; 0 where the backend numbers none (reset.Backend).
	revision(ctx context.Context, c client.Client, kind schema.GroupVersionKind) (uint64, error)
	// worlds are the backend's independent worlds, each a Backend of
	// one: Options.Parallel runs one schedule at a time in each.
	worlds() []Backend
}

// An APIServer is a running API server, as a client of it whose scheme
// has the scenario's kinds. A *testenv.Env is one (testenv.Start);
// Remote makes one of any other client, such as an envtest suite's.
type APIServer interface {
	// ServerClient returns the client: uncached, full privileges.
	ServerClient() client.Client
}

// Remote is the API server c reaches: one that runs in a process of its
// own, such as the kube-apiserver of controller-runtime's envtest, whose
// suite's client (k8sClient of a kubebuilder scaffold) is c. The explorer
// then needs nothing of testenv (docs/explore-your-operator.md,
// Reconcilers under internal/).
func Remote(c client.Client) APIServer { return remote{c} }

type remote struct{ c client.Client }

func (r remote) ServerClient() client.Client { return r.c }

// Server runs schedules on env's API server (real 409s, merge patches,
// generation bumps, pruning, defaulting). Before each schedule it deletes
// every object the previous one wrote, finalizers removed first, so that
// names stay the same from schedule to schedule (internal/reset).
//
// Each further server in more (started with the same options: CRDs,
// scheme) is a world of its own, where a worker of Options.Parallel runs
// its schedules: Server(env1, env2) runs two schedules at a time. One
// server is one world: two schedules on it at once would write the same
// objects (docs/explore.md, Parallel and sharded search).
func Server(env APIServer, more ...APIServer) Backend {
	b := &reset.Server{C: env.ServerClient()}
	for _, e := range more {
		b.More = append(b.More, &reset.Server{C: e.ServerClient()})
	}
	return backend{b}
}

// Fake runs schedules on a new controller-runtime fake client per schedule,
// with the status subresource for statusKinds. It is several times faster
// than Server and differs from a real server: see docs/explore.md.
func Fake(scheme *runtime.Scheme, statusKinds ...client.Object) Backend {
	return backend{&reset.Fake{S: scheme, Status: statusKinds}}
}

// FakeWorlds is Fake with n worlds, for Options.Parallel: n schedules
// run at once, each on its own fake client, and the scenario's closures
// (New, Setup, Actions, Invariant) are called from n goroutines at once,
// so they must keep no state across schedules that another schedule
// could see.
func FakeWorlds(n int, scheme *runtime.Scheme, statusKinds ...client.Object) Backend {
	return backend{&reset.Fake{S: scheme, Status: statusKinds, N: n}}
}

// backend is a Backend of internal/reset (reset.Server, reset.Fake).
type backend struct{ b reset.Backend }

func (b backend) begin(ctx context.Context, left []leftover) (client.Client, error) {
	return b.b.Begin(ctx, left)
}

func (b backend) create(ctx context.Context, c client.Client, obj client.Object) (*unstructured.Unstructured, error) {
	return b.b.Create(ctx, c, obj)
}

func (b backend) scheme() *runtime.Scheme { return b.b.Scheme() }

func (b backend) revision(ctx context.Context, c client.Client, kind schema.GroupVersionKind) (uint64, error) {
	return b.b.Revision(ctx, c, kind)
}

func (b backend) worlds() []Backend {
	var out []Backend
	for _, w := range b.b.Worlds() {
		out = append(out, backend{w})
	}
	return out
}

// leftover is an object a schedule's book holds, as the book last saw it
// (internal/reset).
type leftover = reset.Leftover

// leftovers are the objects r's book holds, each at its newest version,
// but those there before the search that no step wrote, and with what
// was there before it restored (reset.Before): older than the search's
// first schedule in this world, the server's revision before it
// (began), or on a backend with none (Fake) the revision its first
// scenario Object was created at.
func leftovers(ex *explorer, r *run) []leftover {
	if ex.before.Began == 0 {
		for _, o := range ex.setup.s.Objects {
			k, err := r.Book.KeyOf(o, client.ObjectKeyFromObject(o))
			if h := r.Book.History(k); err == nil && h != nil && len(h.RVs) > 0 {
				if rv, err := strconv.ParseUint(h.RVs[0], 10, 64); err == nil && (ex.before.Began == 0 || rv < ex.before.Began) {
					ex.before.Began = rv
				}
			}
		}
	}
	return reset.Leftovers(r.Book, r.Cache.Lists.Revision, &ex.before)
}
