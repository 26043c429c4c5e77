package explore_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/controller/controllerutil"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"

	testv1 "github.com/statuspatch/statuspatch/internal/testapi/v1"
	"github.com/statuspatch/statuspatch/testenv/explore"
)

const cleanup = "example.com/cleanup"

// finalizerReconciler keeps a finalizer on each Widget and removes it when
// the Widget is being deleted, as RabbitMQ cluster-operator v2.16.0 does:
// with controllerutil.CreateOrUpdate, which creates the Widget again when
// its own read finds it gone.
type finalizerReconciler struct {
	c client.Client
	// update removes the finalizer from what it read, with an update that
	// fails on a stale read, and never creates.
	update bool
}

func (r *finalizerReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	w := &testv1.Widget{}
	if err := r.c.Get(ctx, req.NamespacedName, w); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	if w.DeletionTimestamp.IsZero() {
		if controllerutil.AddFinalizer(w, cleanup) {
			return ctrl.Result{}, r.c.Update(ctx, w)
		}
		return ctrl.Result{}, nil
	}
	if r.update {
		controllerutil.RemoveFinalizer(w, cleanup)
		return ctrl.Result{}, client.IgnoreNotFound(r.c.Update(ctx, w))
	}
	fresh := &testv1.Widget{ObjectMeta: metav1.ObjectMeta{Namespace: w.Namespace, Name: w.Name}}
	_, err := controllerutil.CreateOrUpdate(ctx, r.c, fresh, func() error {
		controllerutil.RemoveFinalizer(fresh, cleanup)
		return nil
	})
	return ctrl.Result{}, err
}

// The update that removes the last finalizer of a Widget being deleted
// deletes it: the explorer records the Widget absent after that write, so
// a later reconcile may read the deleting version from a stale cache and
// then find the Widget gone, and CreateOrUpdate creates it again.
func TestLastFinalizerRemovalDeletes(t *testing.T) {
	var deleted bool
	key := client.ObjectKey{Namespace: "ns", Name: "w"}
	s := explore.Scenario{
		Reconcilers: []explore.Reconciler{{Name: "widget", For: &testv1.Widget{},
			New: func(c client.Client, _ client.Reader) reconcile.Reconciler {
				deleted = false
				return &finalizerReconciler{c: c}
			}}},
		Objects: []client.Object{&testv1.Widget{ObjectMeta: metav1.ObjectMeta{Namespace: key.Namespace, Name: key.Name}}},
		Actions: []explore.Action{{Name: "delete", Run: func(ctx context.Context, c client.Client) error {
			deleted = true
			return c.Delete(ctx, &testv1.Widget{ObjectMeta: metav1.ObjectMeta{Namespace: key.Namespace, Name: key.Name}})
		}}},
		Invariant: func(ctx context.Context, r client.Reader) error {
			w := &testv1.Widget{}
			if err := r.Get(ctx, key, w); deleted && err == nil {
				return fmt.Errorf("the user deleted Widget %s, and it is back (uid %s)", key, w.UID)
			} else if err != nil && !apierrors.IsNotFound(err) {
				return err
			}
			return nil
		},
	}
	scheme := runtime.NewScheme()
	if err := testv1.AddToScheme(scheme); err != nil {
		t.Fatal(err)
	}
	for _, b := range []struct {
		name    string
		backend explore.Backend
	}{{"server", explore.Server(server(t))}, {"fake", explore.Fake(scheme, &testv1.Widget{})}} {
		t.Run(b.name, func(t *testing.T) {
			o := explore.Options{Backend: b.backend, Depth: 5, Budget: searchBound, StopAtFirst: true}
			// It keeps no observedGeneration; the built-in invariant that
			// finds this bug is TestDeletedStaysDeleted's.
			o.Disable = []string{explore.InvariantObservedGenerationStuck, explore.InvariantDeletedStaysDeleted}
			findRecreate(t, s, o, key)
		})
	}
}

// findRecreate explores s and expects the schedule: the finalizer's removal
// makes the Widget absent, a stale read still sees it deleting, and a
// create follows.
func findRecreate(t *testing.T, s explore.Scenario, o explore.Options, key client.ObjectKey) {
	t.Helper()
	res, err := explore.Run(t.Context(), s, o)
	if err != nil {
		t.Fatal(err)
	}
	v := res.Violation
	if v == nil || v.Invariant != explore.InvariantUser || !strings.Contains(v.Message, "it is back") {
		t.Fatalf("want the Widget created again after its deletion, got:\n%v", v)
	}
	t.Logf("%s", v)
	removed, stale, created := false, false, false
	for _, st := range v.Steps {
		for _, r := range st.Reads {
			if removed && r.Object == "Widget "+key.String() && r.Version < r.Newest {
				stale = true
			}
		}
		for _, w := range st.Writes {
			switch {
			case w.Verb == "update" && w.Gone:
				removed = true
			case w.Verb == "create" && stale:
				created = true
			}
		}
	}
	if !removed || !stale || !created {
		t.Fatalf("want the finalizer's removal recorded as the deletion (%t), a stale read after it (%t), then a create (%t):\n%s", removed, stale, created, v)
	}
}

// With no invariant of the scenario's, the built-in "deleted stays
// deleted" finds the Widget created again by its own reconciler after the
// user deleted it; the variant that never creates breaks nothing.
func TestDeletedStaysDeleted(t *testing.T) {
	key := client.ObjectKey{Namespace: "ns", Name: "w"}
	for _, update := range []bool{false, true} {
		t.Run(fmt.Sprintf("update=%t", update), func(t *testing.T) {
			s := explore.Scenario{
				Reconcilers: []explore.Reconciler{{Name: "widget", For: &testv1.Widget{},
					New: func(c client.Client, _ client.Reader) reconcile.Reconciler {
						return &finalizerReconciler{c: c, update: update}
					}}},
				Objects: []client.Object{&testv1.Widget{ObjectMeta: metav1.ObjectMeta{Namespace: key.Namespace, Name: key.Name}}},
				Actions: []explore.Action{{Name: "delete", Run: func(ctx context.Context, c client.Client) error {
					return c.Delete(ctx, &testv1.Widget{ObjectMeta: metav1.ObjectMeta{Namespace: key.Namespace, Name: key.Name}})
				}}},
			}
			o := explore.Options{Backend: explore.Server(server(t)), Depth: 5, Budget: searchBound, StopAtFirst: true}
			o.Disable = []string{explore.InvariantObservedGenerationStuck}
			res, err := explore.Run(t.Context(), s, o)
			if err != nil {
				t.Fatal(err)
			}
			v := res.Violation
			if update {
				if v != nil {
					t.Fatalf("the variant that never creates reported:\n%s", v)
				}
				return
			}
			if v == nil || v.Invariant != explore.InvariantDeletedStaysDeleted || !strings.Contains(v.Message, "Widget ns/w, which the user deleted (step") {
				t.Fatalf("want %s, got:\n%v", explore.InvariantDeletedStaysDeleted, v)
			}
			t.Logf("%s", v)
		})
	}
}
