package explore_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/controller/controllerutil"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"

	testv1 "github.com/statuspatch/statuspatch/internal/testapi/v1"
	"github.com/statuspatch/statuspatch/testenv/explore"
)

// counter writes its Widget's status writes times in a row, each from the
// answer to the one before, under the optimistic lock, the last one
// setting status.phase; writes is the operator's own randomness, read
// anew by every process.
type counter struct {
	c      client.Client
	writes int
}

func (r *counter) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	w := &testv1.Widget{}
	if err := r.c.Get(ctx, req.NamespacedName, w); err != nil || w.Status.Phase != "" {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	for i := 1; i <= r.writes; i++ {
		base := w.DeepCopy()
		w.Status.Counters = map[string]int64{"n": int64(i)}
		if i == r.writes {
			w.Status.Phase = "done"
		}
		if err := r.c.Status().Patch(ctx, w, client.MergeFromWithOptions(base, client.MergeFromWithOptimisticLock{})); err != nil {
			return ctrl.Result{}, err
		}
	}
	return ctrl.Result{}, nil
}

// The depth-first search replays the choices of one schedule as the prefix
// of the next; when the operator's randomness leaves fewer versions to
// read from than the prefix names (here 2 where there were 4), the chosen
// index is bounded by the width there is now: no panic, no lag of -1, no
// violation of a correct reconciler.
func TestChosenIndexBoundedByCurrentWidth(t *testing.T) {
	processes := 0
	s := explore.Scenario{
		Reconcilers: []explore.Reconciler{{Name: "counter", For: &testv1.Widget{},
			New: func(c client.Client, _ client.Reader) reconcile.Reconciler {
				processes++
				// 3 writes (4 versions to read from) in odd processes, 1 (2
				// versions) in even ones: the depth-2 search's third
				// schedule reads with prefix 2 where the width is 2.
				return &counter{c: c, writes: 1 + 2*(processes%2)}
			}}},
		Objects: []client.Object{&testv1.Widget{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "w"}}},
	}
	o := explore.Options{Backend: explore.Server(server(t)), Depth: 2, Budget: searchBound, StopAtFirst: true}
	res, err := explore.Run(t.Context(), s, o)
	if err != nil {
		t.Fatal(err)
	}
	if res.Violation != nil {
		t.Fatalf("a correct reconciler broke an invariant:\n%s", res.Violation)
	}
	if processes < 4 {
		t.Fatalf("%d schedules ran, want at least 4 (depth 1, then three at depth 2)", processes)
	}
}

// A violation found with no chosen step (the steady state of the objects
// as created breaks it) prints a seed that Options.Replay accepts and that
// breaks the same invariant again.
func TestZeroStepViolationReplays(t *testing.T) {
	s := gizmoScenario(gizmoReconciler{})
	s.Invariant = func(context.Context, client.Reader) error { return errors.New("never holds") }
	o := serverOptions(t)
	o.Depth = 1
	res, err := explore.Run(t.Context(), s, o)
	if err != nil {
		t.Fatal(err)
	}
	v := res.Violation
	if v == nil || v.Invariant != explore.InvariantUser || v.Chosen() != 0 {
		t.Fatalf("want the user invariant broken with 0 chosen steps, got:\n%v", v)
	}
	if v.Seed == "" {
		t.Fatalf("the seed of a 0-step violation is empty, which Options.Replay cannot take:\n%s", v)
	}
	o.Replay = v.Seed
	again, err := explore.Run(t.Context(), s, o)
	if err != nil {
		t.Fatalf("replay %q: %v", v.Seed, err)
	}
	if again.Schedules != 2 || again.Violation == nil || again.Violation.Invariant != explore.InvariantUser || again.Violation.Chosen() != 0 {
		t.Fatalf("replay %q: want the same 0-step violation in a replay's 2 runs, got %d runs:\n%v", v.Seed, again.Schedules, again.Violation)
	}
}

// sizer sets spec.size to 5. It reads the Widget from the cache, sends a
// patch that changes nothing (whose answer, decoded into w, is the
// server's newest version), then updates w: the update carries the
// newest resourceVersion and the server accepts it, so the writer held
// that version and overwrote the size it saw there, knowingly.
type sizer struct{ c client.Client }

func (r *sizer) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	w := &testv1.Widget{}
	if err := r.c.Get(ctx, req.NamespacedName, w); err != nil || w.Spec.Size == 5 {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	if err := r.c.Patch(ctx, w, client.MergeFrom(w.DeepCopy())); err != nil {
		return ctrl.Result{}, err
	}
	w.Spec.Size = 5
	return ctrl.Result{}, r.c.Update(ctx, w)
}

// The answer to a write is a read: after a stale read, a no-op patch's
// answer is the newest version, and a write based on it loses nothing.
func TestWriteAnswerIsARead(t *testing.T) {
	s := explore.Scenario{
		Reconcilers: []explore.Reconciler{{Name: "sizer", For: &testv1.Widget{},
			New: func(c client.Client, _ client.Reader) reconcile.Reconciler { return &sizer{c: c} }}},
		Objects: []client.Object{&testv1.Widget{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "w"}}},
		Actions: []explore.Action{resize},
	}
	o := serverOptions(t)
	o.Disable = []string{explore.InvariantObservedGenerationStuck} // it keeps no observedGeneration
	res, err := explore.Run(t.Context(), s, o)
	if err != nil {
		t.Fatal(err)
	}
	if res.Violation != nil {
		t.Fatalf("a write based on a no-op patch's answer reported:\n%s", res.Violation)
	}
	if !res.Exhausted {
		t.Fatalf("search not exhausted in %d schedules", res.Schedules)
	}
}

// reader reads its Widget twice from the cache and writes nothing.
type reader struct{ c client.Client }

func (r *reader) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	for range 2 {
		if err := r.c.Get(ctx, req.NamespacedName, &testv1.Widget{}); err != nil {
			return ctrl.Result{}, client.IgnoreNotFound(err)
		}
	}
	return ctrl.Result{}, nil
}

// A manager's cache is one informer per kind and representation, shared
// by its controllers (typed here; TestEachInformerNeverGoesBackwards reads
// through all three): its view of an object never goes backwards, within
// a reconcile or from one reconcile to the next. No schedule the search
// runs has a cached read older than an earlier one through the same
// informer of the same process.
func TestCachedReadsNeverGoBackwards(t *testing.T) {
	mk := func(name string) explore.Reconciler {
		return explore.Reconciler{Name: name, For: &testv1.Widget{},
			New: func(c client.Client, _ client.Reader) reconcile.Reconciler { return &reader{c: c} }}
	}
	s := explore.Scenario{
		Reconcilers: []explore.Reconciler{mk("a"), mk("b")},
		Objects:     []client.Object{&testv1.Widget{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "w"}}},
		Actions:     []explore.Action{resize},
	}
	o := serverOptions(t)
	o.Depth = 4
	o.Disable = []string{explore.InvariantObservedGenerationStuck}
	res, schedules, err := explore.RunSteps(t.Context(), s, o)
	if err != nil {
		t.Fatal(err)
	}
	if res.Violation != nil || !res.Exhausted {
		t.Fatalf("want the search exhausted without violation, got exhausted %t:\n%v", res.Exhausted, res.Violation)
	}
	stale := 0
	for _, steps := range schedules {
		if err := monotonic(steps); err != nil {
			t.Fatal(err)
		}
		for _, st := range steps {
			for _, rd := range st.Reads {
				if rd.Version < rd.Newest {
					stale++
				}
			}
		}
	}
	if stale == 0 {
		t.Fatalf("no stale read in %d schedules: the test tests nothing", len(schedules))
	}
}

// monotonic fails when a cached read of an object sees an older version
// than an earlier cached read of it through the same informer (kind and
// representation) in the same process.
func monotonic(steps []explore.Step) error {
	last := map[string]int{}
	for _, st := range steps {
		for _, rd := range st.Reads {
			if rd.API || rd.Uncached {
				continue
			}
			in := rd.Object + " " + rd.Informer
			if rd.Version < last[in] {
				return fmt.Errorf("step %d read %s v%d after v%d through the %q informer:\n%s", st.Index, rd.Object, rd.Version, last[in], rd.Informer, stepsString(steps))
			}
			last[in] = rd.Version
		}
		if strings.HasPrefix(st.Result, "crashed") {
			last = map[string]int{}
		}
	}
	return nil
}

func stepsString(steps []explore.Step) string {
	var b strings.Builder
	for _, st := range steps {
		b.WriteString(st.String())
	}
	return b.String()
}

// toggler keeps a Gizmo for its Widget while spec.data is not "off" and
// deletes it once it is: every read through the API reader.
type toggler struct {
	c   client.Client
	api client.Reader
}

func (r *toggler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	w := &testv1.Widget{}
	if err := r.api.Get(ctx, req.NamespacedName, w); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	g := &testv1.Gizmo{}
	err := r.api.Get(ctx, req.NamespacedName, g)
	switch {
	case err != nil && !apierrors.IsNotFound(err):
		return ctrl.Result{}, err
	case err == nil && w.Spec.Data == "off":
		return ctrl.Result{}, client.IgnoreNotFound(r.c.Delete(ctx, g))
	case err != nil && w.Spec.Data != "off":
		g = &testv1.Gizmo{ObjectMeta: metav1.ObjectMeta{Namespace: w.Namespace, Name: w.Name}}
		if err := controllerutil.SetControllerReference(w, g, r.c.Scheme()); err != nil {
			return ctrl.Result{}, err
		}
		return ctrl.Result{}, r.c.Create(ctx, g)
	}
	return ctrl.Result{}, nil
}

// A reconciler that deletes what it created because the user asked for it
// (spec.data set to "off"), reading fresh versions, deletes nothing of its
// own by mistake: no violation.
func TestOwnDeleteAskedByUser(t *testing.T) {
	off := explore.Action{Name: "off", Run: func(ctx context.Context, c client.Client) error {
		w := &testv1.Widget{}
		if err := c.Get(ctx, client.ObjectKey{Namespace: "ns", Name: "w"}, w); err != nil {
			return err
		}
		w.Spec.Data = "off"
		return c.Update(ctx, w)
	}}
	s := explore.Scenario{
		Reconcilers: []explore.Reconciler{{Name: "toggler", For: &testv1.Widget{}, Owns: []client.Object{&testv1.Gizmo{}},
			New: func(c client.Client, api client.Reader) reconcile.Reconciler { return &toggler{c: c, api: api} }}},
		Objects: []client.Object{&testv1.Widget{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "w"}}},
		Actions: []explore.Action{off},
	}
	o := serverOptions(t)
	o.Disable = []string{explore.InvariantObservedGenerationStuck}
	res, err := explore.Run(t.Context(), s, o)
	if err != nil {
		t.Fatal(err)
	}
	if res.Violation != nil || !res.Exhausted {
		t.Fatalf("want the search exhausted without violation, got exhausted %t:\n%v", res.Exhausted, res.Violation)
	}
}

// A kind the manager reads uncached (client.Options.Cache.DisableFor,
// declared in Options.Uncached) is read fresh through the reconcilers'
// client: the reconciler that reads its parent through that client, found
// deleting its own Gizmo after a stale read under the defaults
// (TestBuiltinInvariantsFindEachBug), is correct with its parent uncached.
func TestUncachedKindReadsFresh(t *testing.T) {
	o := serverOptions(t)
	o.Uncached = []client.Object{&testv1.Widget{}}
	res, schedules, err := explore.RunSteps(t.Context(), gizmoScenario(gizmoReconciler{staleParent: true}), o)
	if err != nil {
		t.Fatal(err)
	}
	if res.Violation != nil || !res.Exhausted {
		t.Fatalf("want the search exhausted without violation, got exhausted %t:\n%v", res.Exhausted, res.Violation)
	}
	uncached := 0
	for _, steps := range schedules {
		for _, st := range steps {
			for _, rd := range st.Reads {
				if !strings.HasPrefix(rd.Object, "Widget ") {
					continue
				}
				if !rd.Uncached || rd.Version != rd.Newest {
					t.Fatalf("step %d read %+v, want the newest Widget, uncached:\n%s", st.Index, rd, stepsString(steps))
				}
				uncached++
			}
		}
	}
	if uncached == 0 {
		t.Fatal("no Widget read: the test tests nothing")
	}
}

// keeper updates spec.size to 1, then to 2, from the answer to its last
// update, kept in memory across reconciles, whatever its cache shows.
type keeper struct {
	c    client.Client
	last *testv1.Widget
}

func (r *keeper) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	w := &testv1.Widget{}
	if err := r.c.Get(ctx, req.NamespacedName, w); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	if r.last != nil {
		w = r.last
	}
	if w.Spec.Size >= 2 {
		return ctrl.Result{}, nil
	}
	w.Spec.Size++
	if err := r.c.Update(ctx, w); err != nil {
		r.last = nil
		return ctrl.Result{}, err
	}
	r.last = w
	return ctrl.Result{}, nil
}

// An update the server accepted with a resourceVersion proves the writer
// held that version: one sent from an answer kept in memory, after a stale
// read in the same reconcile, loses nothing.
func TestAcceptedUpdateProvesItsBase(t *testing.T) {
	s := explore.Scenario{
		Reconcilers: []explore.Reconciler{{Name: "keeper", For: &testv1.Widget{},
			New: func(c client.Client, _ client.Reader) reconcile.Reconciler { return &keeper{c: c} }}},
		Objects: []client.Object{&testv1.Widget{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "w"}}},
	}
	o := serverOptions(t)
	o.Disable = []string{explore.InvariantObservedGenerationStuck}
	res, err := explore.Run(t.Context(), s, o)
	if err != nil {
		t.Fatal(err)
	}
	if res.Violation != nil || !res.Exhausted {
		t.Fatalf("want the search exhausted without violation, got exhausted %t:\n%v", res.Exhausted, res.Violation)
	}
}
