package controller

// Written by statuspatch-gen init as a starting point; it is yours to edit
// (init does not write it again). It runs the reconciler against a real API
// server with the built-in kinds, which the code make test compiles uses
// (internal/controller/order_controller.go:45: Create of a corev1.ConfigMap (k8s.io/api/core/v1)):
// testenv.WithFullAPI(), kube-apiserver (from KUBEBUILDER_ASSETS, which make
// test exports, or testenv-assets' cache) on an in-process etcd, with the
// CRDs make manifests writes, then reads the
// object back from the server: each status field the reconciler
// changed on the Order it read must hold what the server stores, so a
// status set but never written (a Flush or Status().Update missing, or a
// no-op) fails; a field it did not change there (another write may set it,
// a server-side apply of another object) is not compared.
// TestOrderDecidesOnce runs two reconciles of one Order at once, as a
// stale cache does: both read it before either writes, and a status write
// the server stores over a state its reconcile had not read (the other's
// write, under a blind patch from the first read) fails it; a write under
// the lock is refused (a Conflict) and re-decided on a fresh read, and a
// write that changes nothing stores nothing. A stored write that changes a
// status value the other reconcile's stored write set, in one generation,
// more often than two reconciles one after the other do (a decision made
// on the first read, written after a re-read) fails it too; values that
// differ only in time (RFC 3339 times, durations) are logged, not judged.

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"k8s.io/apimachinery/pkg/api/equality"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	apimeta "k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	kerrors "k8s.io/apimachinery/pkg/util/errors"
	clientgoscheme "k8s.io/client-go/kubernetes/scheme"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/statuspatch/statuspatch/testenv"

	shopv1 "example.com/shop/api/v1"
)

// startStarterOrder starts kube-apiserver (testenv.WithFullAPI: it serves
// the built-in kinds the code uses, Deployments, ConfigMaps..., and the
// project's CRDs), with a scheme of the client-go kinds and the project's, as
// cmd/main.go registers them, and creates a Order named name.
func startStarterOrder(t *testing.T, name string) (*testenv.Env, *runtime.Scheme, *shopv1.Order) {
	t.Helper()
	scheme := runtime.NewScheme()
	if err := clientgoscheme.AddToScheme(scheme); err != nil {
		t.Fatal(err)
	}
	if err := shopv1.AddToScheme(scheme); err != nil {
		t.Fatal(err)
	}
	env := testenv.Start(t, testenv.WithFullAPI(), testenv.WithCRDDirectory("../../config/crd"), testenv.WithScheme(scheme))
	return env, scheme, createStarterOrder(t, env, name)
}

// createStarterOrder creates a Order named name.
func createStarterOrder(t *testing.T, env *testenv.Env, name string) *shopv1.Order {
	t.Helper()
	obj := &shopv1.Order{ObjectMeta: metav1.ObjectMeta{Namespace: "default", Name: name}}
	// TODO(user): set the spec fields your reconciler needs.
	if err := env.Client.Create(t.Context(), obj); err != nil {
		t.Fatal(err)
	}
	return obj
}

func TestOrderReconcilerOnTestenv(t *testing.T) {
	env, scheme, obj := startStarterOrder(t, "starter")
	ctx := t.Context()
	key := types.NamespacedName{Namespace: obj.Namespace, Name: obj.Name}
	reads := &starterOrderClient{Client: env.Client, key: key}
	r := &OrderReconciler{Client: reads, Scheme: scheme}
	if _, err := r.Reconcile(ctx, ctrl.Request{NamespacedName: key}); err != nil {
		t.Fatalf("reconcile %s: %v", key, err)
	}
	// A fresh read of what the server stores: env.Client is uncached, and
	// got is a new object, nothing the reconciler holds.
	got := &shopv1.Order{}
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

func TestOrderDecidesOnce(t *testing.T) {
	env, scheme, obj := startStarterOrder(t, "starter-twice")
	key := types.NamespacedName{Namespace: obj.Namespace, Name: obj.Name}
	c := &starterOrderClient{Client: env.Client, key: key}
	const n = 2
	starterReconcileOrder(t, &OrderReconciler{Client: c, Scheme: scheme}, key, n, true)
	overwrote, unknown := c.judged()
	twice, timed := c.decidedAgain()
	for _, u := range append(unknown, timed...) {
		t.Log(u)
	}
	if len(overwrote) > 0 {
		t.Fatalf("two reconciles of %s that read it before either wrote:\n%s", key, strings.Join(overwrote, "\n"))
	}
	if len(twice) == 0 {
		return
	}
	// A reconcile changed a status value the other's stored write had set,
	// in the same generation (nothing else writes the object): a second
	// decision, unless the reconciler decides it anew on every reconcile (a
	// counter). The reference: n reconciles of another Order, one after
	// the other; a path the reconciles at once changed more often than they
	// do was decided on the first read and written after a re-read.
	once := createStarterOrder(t, env, "starter-once")
	ref := &starterOrderClient{Client: env.Client, key: types.NamespacedName{Namespace: once.Namespace, Name: once.Name}}
	starterReconcileOrder(t, &OrderReconciler{Client: ref, Scheme: scheme}, ref.key, n, false)
	together, alone := c.stored(), ref.stored()
	var again []string
	for _, ch := range twice {
		if together[ch.path] > alone[ch.path] {
			again = append(again, fmt.Sprintf("%s: reconcile %d stored %s over %s, which reconcile %d had stored, in generation %d (stored %d times by %d reconciles at once, %d by %d one after the other, on %s)",
				ch.path, ch.by, starterJSON(ch.to), starterJSON(ch.from), ch.over.by, ch.gen, together[ch.path], n, alone[ch.path], n, ref.key))
		}
	}
	if len(again) > 0 {
		t.Fatalf("two reconciles of %s that read it before either wrote decided a status value twice (a decision made on the first read, written over the other's after a re-read?):\n%s", key, strings.Join(again, "\n"))
	}
}

// starterReconcileOrder runs n reconciles of key with r: together, at
// once, met after their first read of it (a barrier: each waits until all
// have read, or returned), so all decide on the same state; else one after
// the other. A Conflict is the lock refusing a write from a read another
// write has overtaken (the controller requeues it); any other error fails.
func starterReconcileOrder(t *testing.T, r *OrderReconciler, key types.NamespacedName, n int, together bool) {
	t.Helper()
	all := &sync.WaitGroup{}
	all.Add(n)
	errs := make(chan error, n)
	for i := range n {
		a := &starterArrival{n: i + 1, all: all}
		if !together {
			a.all = &sync.WaitGroup{}
			a.all.Add(1)
		}
		run := func() {
			defer a.arrive(false)
			_, err := r.Reconcile(context.WithValue(t.Context(), starterArrivalKey{}, a), ctrl.Request{NamespacedName: key})
			errs <- err
		}
		if together {
			go run()
		} else {
			run()
		}
	}
	for range n {
		if err := <-errs; err != nil && !starterConflict(err) {
			t.Fatalf("reconcile %s: %v", key, err)
		}
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

// starterArrival is one reconcile of TestOrderDecidesOnce, the n-th,
// at its barrier; the reconcile's context carries it under
// starterArrivalKey.
type starterArrival struct {
	n    int
	once sync.Once
	all  *sync.WaitGroup
	// known are the resourceVersions of the key the reconcile had from the
	// server, in the order had: its Gets, items of its Lists (one served by
	// a cache may be older than a Get before it), the answers to its own
	// writes; none before any (starterOrderClient.mu guards it).
	known []string
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

// starterOrderClient is the reconciler's client in the starter tests:
// it keeps each Order the reconciler reads by key, with the status read,
// and judges each status write of the key on the server's answers. Writes
// of the key are serialized and each reads the stored resourceVersion
// first, so what a write stored over is known exactly; a status write that
// stored (its answer has a new resourceVersion) over one its reconcile had
// not had from the server is a decision made on a read another write had
// acted on. A write that changes nothing stores nothing (its answer keeps
// the resourceVersion) and overwrites nothing.
type starterOrderClient struct {
	client.Client
	key types.NamespacedName
	// writing serializes the writes of the key.
	writing sync.Mutex
	mu      sync.Mutex
	objs    []*shopv1.Order
	reads   []*shopv1.Order // copies, as read
	// overwrote says each status write stored over a resourceVersion its
	// reconcile had not had; unknown each one that could not be judged.
	overwrote, unknown []string
	// changes are the status values the stored status writes changed, in
	// the order stored; set, the change that last set each path.
	changes []*starterChange
	set     map[string]*starterChange
}

func (c *starterOrderClient) Get(ctx context.Context, key client.ObjectKey, obj client.Object, opts ...client.GetOption) error {
	err := c.Client.Get(ctx, key, obj, opts...)
	if o, ok := obj.(*shopv1.Order); ok && err == nil && key == c.key {
		c.mu.Lock()
		c.objs = append(c.objs, o)
		c.reads = append(c.reads, o.DeepCopy())
		c.mu.Unlock()
		c.had(ctx, o.ResourceVersion)
	}
	return err
}

// List records the key's item, if the list has it, as the reconcile's read.
func (c *starterOrderClient) List(ctx context.Context, list client.ObjectList, opts ...client.ListOption) error {
	if err := c.Client.List(ctx, list, opts...); err != nil {
		return err
	}
	return apimeta.EachListItem(list, func(o runtime.Object) error {
		if item, ok := o.(*shopv1.Order); ok && item.Namespace == c.key.Namespace && item.Name == c.key.Name {
			c.had(ctx, item.ResourceVersion)
		}
		return nil
	})
}

// had records rv as the resourceVersion of the key ctx's reconcile has from
// the server, and brings it to the barrier.
func (c *starterOrderClient) had(ctx context.Context, rv string) {
	a, ok := ctx.Value(starterArrivalKey{}).(*starterArrival)
	if !ok {
		return
	}
	c.mu.Lock()
	a.known = append(a.known, rv)
	c.mu.Unlock()
	a.arrive(true)
}

// Status judges the status writes of the key.
func (c *starterOrderClient) Status() client.SubResourceWriter {
	return &starterOrderStatus{SubResourceWriter: c.Client.Status(), c: c}
}

// Update and Patch of the Order itself are serialized with the status
// writes, and their answers are what the reconcile has from the server.
func (c *starterOrderClient) Update(ctx context.Context, obj client.Object, opts ...client.UpdateOption) error {
	return c.write(ctx, obj, "", func() error { return c.Client.Update(ctx, obj, opts...) })
}

func (c *starterOrderClient) Patch(ctx context.Context, obj client.Object, patch client.Patch, opts ...client.PatchOption) error {
	return c.write(ctx, obj, "", func() error { return c.Client.Patch(ctx, obj, patch, opts...) })
}

// write runs do, a write of obj (what, "status update" or "status patch",
// for a status write; "" for one of the object): when obj is the key's
// Order, after the writes of it before, reading the resourceVersion
// stored before it, and judging what it stored.
func (c *starterOrderClient) write(ctx context.Context, obj client.Object, what string, do func() error) error {
	if _, ok := obj.(*shopv1.Order); !ok || obj.GetNamespace() != c.key.Namespace || obj.GetName() != c.key.Name {
		return do()
	}
	c.writing.Lock()
	defer c.writing.Unlock()
	stored := &shopv1.Order{}
	if err := c.Client.Get(ctx, c.key, stored); err != nil {
		return fmt.Errorf("reading %s before a write of it: %w", c.key, err)
	}
	if err := do(); err != nil {
		return err
	}
	before, after := stored.ResourceVersion, obj.GetResourceVersion()
	a, ok := ctx.Value(starterArrivalKey{}).(*starterArrival)
	c.mu.Lock()
	defer c.mu.Unlock()
	if what == "" || after == before {
		if ok {
			a.known = append(a.known, after)
		}
		return nil
	}
	by := 0
	if ok {
		by = a.n
	}
	changes, err := c.note(by, stored, obj.(*shopv1.Order))
	switch {
	case err != nil:
		c.unknown = append(c.unknown, fmt.Sprintf("Unknown: the status values a %s of %s changed: %v; not judged", what, c.key, err))
	case !ok:
		c.unknown = append(c.unknown, fmt.Sprintf("Unknown: a %s of %s stored resourceVersion %s over %s from a context that is not a reconcile's (not the ctx Reconcile was given?); not judged", what, c.key, after, before))
	case len(a.known) == 0:
		c.unknown = append(c.unknown, fmt.Sprintf("Unknown: reconcile %d's %s of %s stored resourceVersion %s over %s, and it read %s through no Get or List of this client; not judged", a.n, what, c.key, after, before, c.key))
	case !slices.Contains(a.known, before) && starterTimed(changes):
		c.unknown = append(c.unknown, fmt.Sprintf("Unknown: reconcile %d's %s of %s stored resourceVersion %s over %s, a state it had not read, changing only values that differ only in time; not judged", a.n, what, c.key, after, before))
	case !slices.Contains(a.known, before):
		c.overwrote = append(c.overwrote, fmt.Sprintf("reconcile %d, which last read %s at resourceVersion %s, stored resourceVersion %s with a %s over %s, a state it had not read: it made its decision again on a read another write had acted on (a status write without the resourceVersion it read, a blind patch?)", a.n, c.key, a.known[len(a.known)-1], after, what, before))
	}
	if ok {
		a.known = append(a.known, after)
	}
	return nil
}

// judged is what the status writes of the key overwrote, and the ones not
// judged.
func (c *starterOrderClient) judged() (overwrote, unknown []string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return slices.Clone(c.overwrote), slices.Clone(c.unknown)
}

// changed is the last Order read whose status changed since it was read
// (the one the reconciler set a status on), as read and as left, or nils.
func (c *starterOrderClient) changed() (read, left *shopv1.Order) {
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
func starterUnsent(t *testing.T, read, left, got *shopv1.Order) string {
	t.Helper()
	status := func(o *shopv1.Order) map[string]any {
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

// starterOrderStatus is starterOrderClient's status writer.
type starterOrderStatus struct {
	client.SubResourceWriter
	c *starterOrderClient
}

func (s *starterOrderStatus) Update(ctx context.Context, obj client.Object, opts ...client.SubResourceUpdateOption) error {
	return s.c.write(ctx, obj, "status update", func() error { return s.SubResourceWriter.Update(ctx, obj, opts...) })
}

func (s *starterOrderStatus) Patch(ctx context.Context, obj client.Object, patch client.Patch, opts ...client.SubResourcePatchOption) error {
	return s.c.write(ctx, obj, "status patch", func() error { return s.SubResourceWriter.Patch(ctx, obj, patch, opts...) })
}

// starterChange is a status value a stored status write changed: at path
// (status.phase, status.conditions[type=Ready].status), from the value
// stored before it (nil: none) to the one it stored, by reconcile by (0: a
// write from a context that is not a reconcile's), over generation gen;
// over is the change that had set from, if a write of this client did.
type starterChange struct {
	path     string
	from, to any
	by       int
	gen      int64
	over     *starterChange
}

// note records the status values a stored status write of reconcile by
// changed, from stored (read before the write) to answer (the server's
// answer to it).
func (c *starterOrderClient) note(by int, stored, answer *shopv1.Order) ([]*starterChange, error) {
	from, err := starterLeaves(stored)
	if err != nil {
		return nil, err
	}
	to, err := starterLeaves(answer)
	if err != nil {
		return nil, err
	}
	paths := slices.Collect(maps.Keys(from))
	for p := range to {
		if _, ok := from[p]; !ok {
			paths = append(paths, p)
		}
	}
	slices.Sort(paths)
	if c.set == nil {
		c.set = map[string]*starterChange{}
	}
	var changes []*starterChange
	for _, p := range paths {
		if equality.Semantic.DeepEqual(from[p], to[p]) {
			continue
		}
		ch := &starterChange{path: p, from: from[p], to: to[p], by: by, gen: stored.Generation, over: c.set[p]}
		c.set[p] = ch
		changes = append(changes, ch)
	}
	c.changes = append(c.changes, changes...)
	return changes, nil
}

// decidedAgain is each change a reconcile's stored write made of a value
// another reconcile's stored write had set, over the same generation; one
// of values that differ only in time is not a decision made again, but a
// line in timed.
func (c *starterOrderClient) decidedAgain() (twice []*starterChange, timed []string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, ch := range c.changes {
		if ch.by == 0 || ch.over == nil || ch.over.by == 0 || ch.over.by == ch.by || ch.over.gen != ch.gen {
			continue
		}
		if starterTimeOnly(ch.from, ch.to) {
			timed = append(timed, fmt.Sprintf("Unknown: %s: reconcile %d stored %s over %s, which reconcile %d had stored, values which differ only in time; not judged a second decision", ch.path, ch.by, starterJSON(ch.to), starterJSON(ch.from), ch.over.by))
			continue
		}
		twice = append(twice, ch)
	}
	return twice, timed
}

// stored counts, by path, the changes the reconciles' stored status writes
// made, but those of values that differ only in time.
func (c *starterOrderClient) stored() map[string]int {
	c.mu.Lock()
	defer c.mu.Unlock()
	n := map[string]int{}
	for _, ch := range c.changes {
		if ch.by != 0 && !starterTimeOnly(ch.from, ch.to) {
			n[ch.path]++
		}
	}
	return n
}

// starterTimed says whether there are changes, all of values that differ
// only in time.
func starterTimed(changes []*starterChange) bool {
	return len(changes) > 0 && !slices.ContainsFunc(changes, func(ch *starterChange) bool { return !starterTimeOnly(ch.from, ch.to) })
}

// starterTime is a time as RFC 3339 writes it (metav1.Time, MicroTime).
var starterTime = regexp.MustCompile(`[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}(\.[0-9]+)?(Z|[+-][0-9]{2}:[0-9]{2})`)

// starterTimeOnly says whether a and b are strings that differ only in
// time: two durations ("1m30s", metav1.Duration), or the same text but
// for the RFC 3339 times in it.
func starterTimeOnly(a, b any) bool {
	s, ok := a.(string)
	u, ok2 := b.(string)
	if !ok || !ok2 {
		return false
	}
	if _, err := time.ParseDuration(s); err == nil {
		if _, err := time.ParseDuration(u); err == nil {
			return true
		}
	}
	return starterTime.MatchString(s) && starterTime.ReplaceAllString(s, "") == starterTime.ReplaceAllString(u, "")
}

// starterLeaves is o's status by path: maps by key, lists by their items'
// type when each has its own (conditions), else by index.
func starterLeaves(o *shopv1.Order) (map[string]any, error) {
	u, err := runtime.DefaultUnstructuredConverter.ToUnstructured(o)
	if err != nil {
		return nil, fmt.Errorf("%s/%s: %w", o.Namespace, o.Name, err)
	}
	leaves := map[string]any{}
	starterFlatten("status", u["status"], leaves)
	return leaves, nil
}

func starterFlatten(path string, v any, leaves map[string]any) {
	switch v := v.(type) {
	case map[string]any:
		for k, e := range v {
			starterFlatten(path+"."+k, e, leaves)
		}
	case []any:
		keys := map[string]bool{}
		for _, e := range v {
			m, _ := e.(map[string]any)
			t, ok := m["type"].(string)
			if !ok || keys[t] {
				keys = nil
				break
			}
			keys[t] = true
		}
		for i, e := range v {
			p := fmt.Sprintf("%s[%d]", path, i)
			if keys != nil {
				p = fmt.Sprintf("%s[type=%s]", path, e.(map[string]any)["type"])
			}
			starterFlatten(p, e, leaves)
		}
	case nil:
	default:
		leaves[path] = v
	}
}

// starterJSON is v as JSON, as the server stores it.
func starterJSON(v any) string {
	if v == nil {
		return "(none)"
	}
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	return string(b)
}
