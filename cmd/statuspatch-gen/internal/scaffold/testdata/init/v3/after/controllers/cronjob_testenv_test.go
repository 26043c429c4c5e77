package controllers

// Written by statuspatch-gen init as a starting point; it is yours to edit
// (init does not write it again). It runs the reconciler against a real API
// server (testenv: in-process, serving the CRDs only, or envtest's binaries
// when KUBEBUILDER_ASSETS is set) with the CRDs make manifests writes, then
// reads the
// object back from the server: each status field the reconciler
// changed on the CronJob it read must hold what the server stores, so a
// status set but never written (a Flush or Status().Update missing, or a
// no-op) fails; a field it did not change there (another write may set it,
// a server-side apply of another object) is not compared.
// TestCronJobDecidesOnce runs two reconciles of one CronJob at once, as a
// stale cache does: both read it before either writes, and together they
// must store no more status writes than one reconcile alone, so a decision
// made twice (a blind status write from the first read) fails.

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"sync"
	"testing"

	"k8s.io/apimachinery/pkg/api/equality"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	kerrors "k8s.io/apimachinery/pkg/util/errors"
	clientgoscheme "k8s.io/client-go/kubernetes/scheme"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/statuspatch/statuspatch/testenv"

	batchv1 "tutorial.kubebuilder.io/project/api/v1"
)

// startStarterCronJob starts testenv's in-process API server with the
// project's CRDs (no built-in kinds: a reconciler that reads or creates
// Deployments, ConfigMaps... needs testenv.WithFullAPI()), with a scheme of
// the client-go kinds and the project's, as cmd/main.go registers them, and
// creates a CronJob named name.
func startStarterCronJob(t *testing.T, name string) (*testenv.Env, *runtime.Scheme, *batchv1.CronJob) {
	t.Helper()
	scheme := runtime.NewScheme()
	if err := clientgoscheme.AddToScheme(scheme); err != nil {
		t.Fatal(err)
	}
	if err := batchv1.AddToScheme(scheme); err != nil {
		t.Fatal(err)
	}
	env := testenv.Start(t, testenv.WithCRDDirectory("../config/crd"), testenv.WithScheme(scheme))
	return env, scheme, createStarterCronJob(t, env, name)
}

// createStarterCronJob creates a CronJob named name.
func createStarterCronJob(t *testing.T, env *testenv.Env, name string) *batchv1.CronJob {
	t.Helper()
	obj := &batchv1.CronJob{ObjectMeta: metav1.ObjectMeta{Namespace: "default", Name: name}}
	// TODO(user): set the spec fields your reconciler needs.
	if err := env.Client.Create(t.Context(), obj); err != nil {
		t.Fatal(err)
	}
	return obj
}

func TestCronJobReconcilerOnTestenv(t *testing.T) {
	env, scheme, obj := startStarterCronJob(t, "starter")
	ctx := t.Context()
	key := types.NamespacedName{Namespace: obj.Namespace, Name: obj.Name}
	reads := &starterCronJobClient{Client: env.Client, key: key}
	r := &CronJobReconciler{Client: reads, Scheme: scheme}
	if _, err := r.Reconcile(ctx, ctrl.Request{NamespacedName: key}); err != nil {
		t.Fatalf("reconcile %s: %v", key, err)
	}
	// A fresh read of what the server stores: env.Client is uncached, and
	// got is a new object, nothing the reconciler holds.
	got := &batchv1.CronJob{}
	if err := env.Client.Get(ctx, key, got); err != nil {
		t.Fatalf("get %s after reconcile: %v", key, err)
	}
	if got.UID != obj.UID {
		t.Fatalf("%s after reconcile has UID %s, want the created object's %s", key, got.UID, obj.UID)
	}
	if read, left := reads.changed(); left != nil {
		if unsent := starterUnsent(t, read, left, got); unsent != "" {
			t.Fatalf("the reconciler changed the status of %s it read, but the server stores other values:\n%s(a status write missing or failing silently?)", key, unsent)
		}
	}
	// TODO(user): assert the status your reconciler writes.
}

func TestCronJobDecidesOnce(t *testing.T) {
	env, scheme, once := startStarterCronJob(t, "starter-once")
	twice := createStarterCronJob(t, env, "starter-twice")
	// stored runs n reconciles of obj at once and returns the status writes
	// the server stored for it. The reconciles meet after their first read
	// of obj (a barrier: each waits until all have read, or returned), so
	// each decides on the same state; a Conflict is the lock refusing a
	// decision made on a read another write has overtaken (the controller
	// requeues it), any other error fails.
	stored := func(obj *batchv1.CronJob, n int) int {
		key := types.NamespacedName{Namespace: obj.Namespace, Name: obj.Name}
		c := &starterCronJobClient{Client: env.Client, key: key}
		r := &CronJobReconciler{Client: c, Scheme: scheme}
		all := &sync.WaitGroup{}
		all.Add(n)
		errs := make(chan error, n)
		for range n {
			go func() {
				a := &starterArrival{all: all}
				defer a.arrive(false)
				_, err := r.Reconcile(context.WithValue(t.Context(), starterArrivalKey{}, a), ctrl.Request{NamespacedName: key})
				errs <- err
			}()
		}
		for range n {
			if err := <-errs; err != nil && !starterConflict(err) {
				t.Fatalf("reconcile %s: %v", key, err)
			}
		}
		return c.stored()
	}
	alone := stored(once, 1)
	if both := stored(twice, 2); both > alone {
		t.Fatalf("two reconciles that read %s/%s before either wrote stored %d status writes, one reconcile alone stores %d: the second made its decision again on a read the first had acted on (a status write without the resourceVersion it read, a blind patch?)", twice.Namespace, twice.Name, both, alone)
	}
}

// starterConflict says whether err is the lock's refusal: a Conflict, or
// an aggregate of Conflicts only (kerrors.NewAggregate, as cluster-api's
// deferred patch returns its error), which apierrors.IsConflict does not
// look into. It unwraps by hand: errors.As is modernize's errorsastype
// finding from Go 1.26 on, and errors.AsType is not in older Go.
func starterConflict(err error) bool {
	for e := err; e != nil; e = errors.Unwrap(e) {
		if agg, ok := e.(kerrors.Aggregate); ok {
			return len(agg.Errors()) > 0 && !slices.ContainsFunc(agg.Errors(), func(e error) bool { return !starterConflict(e) })
		}
	}
	return apierrors.IsConflict(err)
}

// starterArrival is one reconcile at TestCronJobDecidesOnce's barrier; the
// reconcile's context carries it under starterArrivalKey.
type starterArrival struct {
	once sync.Once
	all  *sync.WaitGroup
}

type starterArrivalKey struct{}

// arrive marks the reconcile arrived, once; with wait, it waits for the others.
func (a *starterArrival) arrive(wait bool) {
	a.once.Do(func() {
		a.all.Done()
		if wait {
			a.all.Wait()
		}
	})
}

// starterCronJobClient is the reconciler's client in the starter tests:
// it keeps each CronJob the reconciler reads by key, with the status read,
// and counts the status writes to it the server stored.
type starterCronJobClient struct {
	client.Client
	key    types.NamespacedName
	mu     sync.Mutex
	objs   []*batchv1.CronJob
	reads  []*batchv1.CronJob // copies, as read
	writes int
	// seen is every resourceVersion of the key the server answered: a
	// write that changes nothing answers one of them, a write it stored
	// a new one.
	seen map[string]bool
}

func (c *starterCronJobClient) Get(ctx context.Context, key client.ObjectKey, obj client.Object, opts ...client.GetOption) error {
	err := c.Client.Get(ctx, key, obj, opts...)
	if o, ok := obj.(*batchv1.CronJob); ok && err == nil && key == c.key {
		c.mu.Lock()
		c.objs = append(c.objs, o)
		c.reads = append(c.reads, o.DeepCopy())
		c.saw(o.GetResourceVersion())
		c.mu.Unlock()
		if a, ok := ctx.Value(starterArrivalKey{}).(*starterArrival); ok {
			a.arrive(true)
		}
	}
	return err
}

// Status counts the status writes to the key the server stored.
func (c *starterCronJobClient) Status() client.SubResourceWriter {
	return &starterCronJobStatus{SubResourceWriter: c.Client.Status(), c: c}
}

// Update and Patch of the CronJob itself record the resourceVersion the
// server answered, so a status write after them that stores nothing is not
// taken for one that stored.
func (c *starterCronJobClient) Update(ctx context.Context, obj client.Object, opts ...client.UpdateOption) error {
	return c.answered(obj, c.Client.Update(ctx, obj, opts...))
}

func (c *starterCronJobClient) Patch(ctx context.Context, obj client.Object, patch client.Patch, opts ...client.PatchOption) error {
	return c.answered(obj, c.Client.Patch(ctx, obj, patch, opts...))
}

// answered records the resourceVersion of the server's answer to a write
// of the key that returned err.
func (c *starterCronJobClient) answered(obj client.Object, err error) error {
	if err == nil && obj.GetNamespace() == c.key.Namespace && obj.GetName() == c.key.Name {
		c.mu.Lock()
		c.saw(obj.GetResourceVersion())
		c.mu.Unlock()
	}
	return err
}

// saw records rv and says whether the server answered it before; c.mu held.
func (c *starterCronJobClient) saw(rv string) bool {
	if c.seen == nil {
		c.seen = map[string]bool{}
	}
	before := c.seen[rv]
	c.seen[rv] = true
	return before
}

// wrote counts a status write to obj that returned err when the server
// stored it: its answer carries a resourceVersion the server had not
// answered before (a write that changes nothing succeeds with the
// object's resourceVersion as it was, and stores nothing).
func (c *starterCronJobClient) wrote(obj client.Object, err error) error {
	if err == nil && obj.GetNamespace() == c.key.Namespace && obj.GetName() == c.key.Name {
		c.mu.Lock()
		if !c.saw(obj.GetResourceVersion()) {
			c.writes++
		}
		c.mu.Unlock()
	}
	return err
}

// stored is the number of status writes to the key the server stored.
func (c *starterCronJobClient) stored() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.writes
}

// changed is the last CronJob read whose status changed since it was read
// (the one the reconciler set a status on), as read and as left, or nils.
func (c *starterCronJobClient) changed() (read, left *batchv1.CronJob) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for i, o := range slices.Backward(c.objs) {
		if !equality.Semantic.DeepEqual(o.Status, c.reads[i].Status) {
			return c.reads[i], o
		}
	}
	return nil, nil
}

// starterUnsent lists the status fields changed from read to left whose
// value in got (what the server stores) is not left's, a line each with
// both values, or "".
func starterUnsent(t *testing.T, read, left, got *batchv1.CronJob) string {
	t.Helper()
	status := func(o *batchv1.CronJob) map[string]any {
		u, err := runtime.DefaultUnstructuredConverter.ToUnstructured(o)
		if err != nil {
			t.Fatalf("%s/%s: %v", o.Namespace, o.Name, err)
		}
		s, _ := u["status"].(map[string]any)
		return s
	}
	r, l, g := status(read), status(left), status(got)
	fields := slices.Collect(maps.Keys(r))
	for f := range l {
		if _, ok := r[f]; !ok {
			fields = append(fields, f)
		}
	}
	slices.Sort(fields)
	var b strings.Builder
	for _, f := range fields {
		if !equality.Semantic.DeepEqual(r[f], l[f]) && !equality.Semantic.DeepEqual(l[f], g[f]) {
			fmt.Fprintf(&b, "status.%s: the reconciler left %v, the server stores %v\n", f, l[f], g[f])
		}
	}
	return b.String()
}

// starterCronJobStatus is starterCronJobClient's status writer.
type starterCronJobStatus struct {
	client.SubResourceWriter
	c *starterCronJobClient
}

func (s *starterCronJobStatus) Update(ctx context.Context, obj client.Object, opts ...client.SubResourceUpdateOption) error {
	return s.c.wrote(obj, s.SubResourceWriter.Update(ctx, obj, opts...))
}

func (s *starterCronJobStatus) Patch(ctx context.Context, obj client.Object, patch client.Patch, opts ...client.SubResourcePatchOption) error {
	return s.c.wrote(obj, s.SubResourceWriter.Patch(ctx, obj, patch, opts...))
}
