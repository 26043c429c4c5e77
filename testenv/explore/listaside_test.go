package explore_test

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"testing"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"

	testv1 "github.com/statuspatch/statuspatch/internal/testapi/v1"
	"github.com/statuspatch/statuspatch/testenv/explore"
)

// markGrace marks the delete asideServer answers with an error after it
// was stored: no reset or other delete sends that grace period.
const markGrace = 7

// asideServer is a server whose Gizmo evictions delete the Gizmo, as a
// Pod's eviction deletes the Pod, and whose delete with markGrace is
// stored but answered with a timeout (504), as a server whose answer was
// lost after etcd stored it.
type asideServer struct {
	client.Client
	mu    sync.Mutex
	acted int // the deletes stored, by eviction or marked delete
}

func (s *asideServer) ServerClient() client.Client { return s }

func (s *asideServer) Delete(ctx context.Context, obj client.Object, opts ...client.DeleteOption) error {
	err := s.Client.Delete(ctx, obj, opts...)
	if g := (&client.DeleteOptions{}).ApplyOptions(opts).GracePeriodSeconds; err == nil && g != nil && *g == markGrace {
		s.mu.Lock()
		s.acted++
		s.mu.Unlock()
		return apierrors.NewTimeoutError(fmt.Sprintf("deleting %s: the answer was lost", obj.GetName()), 1)
	}
	return err
}

func (s *asideServer) SubResource(sub string) client.SubResourceClient {
	if sub == "eviction" {
		return evictor{SubResourceClient: s.Client.SubResource(sub), s: s}
	}
	return s.Client.SubResource(sub)
}

type evictor struct {
	client.SubResourceClient
	s *asideServer
}

func (e evictor) Create(ctx context.Context, obj, _ client.Object, _ ...client.SubResourceCreateOption) error {
	if err := e.s.Client.Delete(ctx, obj); err != nil {
		return err
	}
	e.s.mu.Lock()
	e.s.acted++
	e.s.mu.Unlock()
	return nil
}

// leftOutLister lists its Widget's Gizmos three times a reconcile, and
// after the first removes the Gizmo g if listed: by an eviction, or by a
// delete answered with an error. Each List is compared with one sent to
// the server right after it (direct).
type leftOutLister struct {
	c, direct client.Client
	how       string // "evict", "delete"
	mu        *sync.Mutex
	differ    *string
}

func gizmoNames(l *testv1.GizmoList) []string {
	var out []string
	for _, g := range l.Items {
		out = append(out, g.Name)
	}
	slices.Sort(out)
	return out
}

func (r *leftOutLister) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	for i := range 3 {
		var l, newest testv1.GizmoList
		if err := r.c.List(ctx, &l, client.InNamespace(req.Namespace)); err != nil {
			return ctrl.Result{}, err
		}
		if err := r.direct.List(ctx, &newest, client.InNamespace(req.Namespace)); err != nil {
			return ctrl.Result{}, err
		}
		if got, want := gizmoNames(&l), gizmoNames(&newest); !slices.Equal(got, want) {
			r.mu.Lock()
			if *r.differ == "" {
				*r.differ = fmt.Sprintf("List %d of a reconcile served %v, the server holds %v", i+1, got, want)
			}
			r.mu.Unlock()
		}
		if i > 0 || !slices.Contains(gizmoNames(&l), "g") {
			continue
		}
		g := &testv1.Gizmo{ObjectMeta: metav1.ObjectMeta{Namespace: req.Namespace, Name: "g"}}
		switch r.how {
		case "evict":
			_ = r.c.SubResource("eviction").Create(ctx, g, &testv1.Gizmo{})
		case "delete":
			_ = r.c.Delete(ctx, g, client.GracePeriodSeconds(markGrace))
		}
	}
	return ctrl.Result{}, nil
}

// A List served from the book (informers.Floors) shows what the server holds,
// also after a request the book could not take in: a subresource create
// (an eviction, which the explorer's client did not intercept on main: the
// book kept the evicted object, and the next List served it), and a
// delete stored but answered with a 504 (the next List sent left the
// object out, but the book kept it present, and the List after that,
// served from the book, showed it). On main both fail.
func TestListServedFromTheBookAfterAWriteAside(t *testing.T) {
	for _, tc := range []struct{ name, how string }{{"eviction", "evict"}, {"delete answered 504", "delete"}} {
		t.Run(tc.name, func(t *testing.T) {
			direct := server(t).Client
			srv := &asideServer{Client: direct}
			var mu sync.Mutex
			differ := ""
			s := explore.Scenario{
				Reconcilers: []explore.Reconciler{{Name: "lister", For: &testv1.Widget{},
					New: func(c client.Client, _ client.Reader) reconcile.Reconciler {
						return &leftOutLister{c: c, direct: direct, how: tc.how, mu: &mu, differ: &differ}
					}}},
				Objects: []client.Object{&testv1.Widget{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "w"}},
					&testv1.Gizmo{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "g"}}},
				Actions: []explore.Action{resize},
			}
			res, err := explore.Run(t.Context(), s, explore.Options{Backend: explore.Server(srv), Seed: 1, Schedules: 3, Depth: 3, Budget: searchBound,
				StaleReads: -1, // every List at lag 0: the server's newest
				Disable:    []string{explore.InvariantObservedGenerationStuck}})
			if err != nil {
				t.Fatal(err)
			}
			if res.Schedules != 3 {
				t.Fatalf("want 3 schedules, got %d:\n%v", res.Schedules, res.Violation)
			}
			srv.mu.Lock()
			acted := srv.acted
			srv.mu.Unlock()
			mu.Lock()
			defer mu.Unlock()
			if acted == 0 {
				t.Fatal("no Gizmo was evicted or deleted")
			}
			if differ != "" {
				t.Error(differ)
			}
		})
	}
}
