package explore_test

import (
	"context"
	"reflect"
	"sync/atomic"
	"testing"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"

	testv1 "github.com/statuspatch/statuspatch/internal/testapi/v1"
	"github.com/statuspatch/statuspatch/testenv/explore"
)

// The reset tests' reconciler (resetblind, resetnoobjects, resetrestore,
// resetnamespace): what differs between them is an entry, the object
// there before Run (startObject), where it is read (look) and how a step
// writes it (write).

// startWriter writes an object the test made before Run (start) once
// Widget w is labelled: it first marks w (annotation wrote), then writes
// the object (write). A reconcile of w that reads, fresh, w unmarked and
// the object other than as the test made it (absent, or not asMade)
// counts in moved: its schedule did not start from the search's start.
// seen counts the reads of the object as made after a schedule wrote it.
type startWriter struct {
	c   client.Client
	api client.Reader
	// look, if set, reads the object instead of api: the test's own
	// client, whose reads no book sees.
	look  client.Reader
	start startObject
	write func(ctx context.Context, c client.Client, got client.Object) error
	n     *startCounts
}

// startObject is an object there before Run: key is a new one with its
// name, to read it into, and asMade reports that what was read is as the
// test made it.
type startObject struct {
	key    func() client.Object
	asMade func(got client.Object) bool
}

// startCounts are what startWriter's reconciles met.
type startCounts struct{ wrote, moved, seen atomic.Int64 }

func (r *startWriter) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	if req.Name != "w" {
		return ctrl.Result{}, nil
	}
	w := &testv1.Widget{}
	if err := r.api.Get(ctx, req.NamespacedName, w); err != nil || w.Annotations["wrote"] != "" {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	look := r.look
	if look == nil {
		look = r.api
	}
	got := r.start.key()
	err := look.Get(ctx, client.ObjectKeyFromObject(got), got)
	if client.IgnoreNotFound(err) != nil {
		return ctrl.Result{}, err
	}
	if err != nil || !r.start.asMade(got) {
		r.n.moved.Add(1)
		return ctrl.Result{}, nil
	}
	if r.n.wrote.Load() > 0 {
		r.n.seen.Add(1)
	}
	if w.Labels["team"] != "a" {
		return ctrl.Result{}, nil
	}
	mark := client.RawPatch(types.MergePatchType, []byte(`{"metadata":{"annotations":{"wrote":"yes"}}}`))
	if err := r.c.Patch(ctx, w, mark); err != nil {
		return ctrl.Result{}, err
	}
	if err := r.write(ctx, r.c, got); err != nil {
		return ctrl.Result{}, err
	}
	r.n.wrote.Add(1)
	return ctrl.Result{}, nil
}

// scenario runs r, reconciler "writer" of Widgets, from objects and
// actions.
func (r startWriter) scenario(objects []client.Object, actions ...explore.Action) explore.Scenario {
	return explore.Scenario{
		Reconcilers: []explore.Reconciler{{Name: "writer", For: &testv1.Widget{},
			New: func(c client.Client, api client.Reader) reconcile.Reconciler {
				r := r
				r.c, r.api = c, api
				return &r
			}}},
		Objects: objects, Actions: actions,
	}
}

// check fails t unless the search ran out its schedules with no
// violation, every reconcile of w read the object as made (moved 0), at
// least wrote of them wrote it, and one read it as made after a write:
// every schedule, before and after one that wrote it, started from the
// search's start.
func (n *startCounts) check(t *testing.T, res *explore.Result, wrote int64) {
	t.Helper()
	if res.Violation != nil || !res.Exhausted || n.moved.Load() != 0 || n.wrote.Load() < wrote || n.seen.Load() == 0 {
		t.Fatalf("want every schedule to start with the object as made, no violation, %d writes of it at least; got %d schedules (exhausted %v), %d reconciles read it moved, %d wrote it, %d read it after a write:\n%v",
			wrote, res.Schedules, res.Exhausted, n.moved.Load(), n.wrote.Load(), n.seen.Load(), res.Violation)
	}
}

// after fails t unless the object reads, through c after the search, as
// made; it returns it.
func (o startObject) after(t *testing.T, c client.Reader) client.Object {
	t.Helper()
	got := o.key()
	if err := c.Get(t.Context(), client.ObjectKeyFromObject(got), got); err != nil || !o.asMade(got) {
		t.Fatalf("%s after the search: %v, %+v; want it as made", client.ObjectKeyFromObject(got), err, got)
	}
	return got
}

// settingsAt is Widget start, as the test made it.
func settingsAt(start *testv1.Widget) startObject {
	return startObject{
		key: func() client.Object {
			return &testv1.Widget{ObjectMeta: metav1.ObjectMeta{Namespace: start.Namespace, Name: start.Name}}
		},
		asMade: func(got client.Object) bool {
			w, ok := got.(*testv1.Widget)
			return ok && asStarted(w, start)
		},
	}
}

// makeSettings makes start before Run, removed after the test.
func makeSettings(t *testing.T, c client.Client, start *testv1.Widget) {
	if err := c.Create(t.Context(), start); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { removeSettings(t, c, start) })
}

// widgetW is Widget ns/w, which startWriter reconciles, new for each
// scenario (Run creates it).
func widgetW() []client.Object {
	return []client.Object{&testv1.Widget{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "w"}}}
}

// labelW labels Widget ns/w for startWriter's write.
var labelW = explore.Action{Name: "label", Run: func(ctx context.Context, c client.Client) error {
	return c.Patch(ctx, &testv1.Widget{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "w"}},
		client.RawPatch(types.MergePatchType, []byte(`{"metadata":{"labels":{"team":"a"}}}`)))
}}

// deleteIt is a write that deletes what was read.
func deleteIt(ctx context.Context, c client.Client, got client.Object) error {
	return c.Delete(ctx, got)
}

// asStarted reports that got is start as the test made it: what the
// reset restores (not its UID, resourceVersion, creationTimestamp).
func asStarted(got, start *testv1.Widget) bool {
	return got.DeletionTimestamp == nil && got.Generation == start.Generation &&
		reflect.DeepEqual(got.Spec, start.Spec) && reflect.DeepEqual(got.Status, start.Status) &&
		reflect.DeepEqual(got.Finalizers, start.Finalizers) && reflect.DeepEqual(got.Labels, start.Labels) &&
		reflect.DeepEqual(got.Annotations, start.Annotations)
}

// removeSettings deletes s, its finalizers removed first, for the next
// test of the shared server.
func removeSettings(t *testing.T, c client.Client, s *testv1.Widget) {
	ctx := context.Background()
	u := &testv1.Widget{}
	if err := c.Get(ctx, client.ObjectKeyFromObject(s), u); err != nil {
		return
	}
	if len(u.Finalizers) > 0 {
		_ = c.Patch(ctx, u, client.RawPatch(types.MergePatchType, []byte(`{"metadata":{"finalizers":null}}`)))
	}
	if err := c.Delete(ctx, u); err != nil && !apierrors.IsNotFound(err) {
		t.Errorf("removing %s: %v", client.ObjectKeyFromObject(s), err)
	}
}
