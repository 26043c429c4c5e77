package scaffold

import "text/template"

// starterTemplate is the starter test init writes (starterTest): the
// reconciler once against a real API server, the status it left compared
// with the one the server stores; for a kind with a status, also two
// reconciles of one object at once, met at a barrier after their first
// read, which must store no more status writes than one reconcile does (a
// decision made once: the second either re-decides on fresh state or is
// refused by the lock).
var starterTemplate = template.Must(template.New("starter").Parse(`package {{.Package}}

// Written by statuspatch-gen init as a starting point; it is yours to edit
// (init does not write it again). It runs the reconciler against a real API
{{- if .FullAPI}}
// server with the built-in kinds, which the code make test compiles uses
// ({{.Builtin}}):
// testenv.WithFullAPI(), kube-apiserver (from KUBEBUILDER_ASSETS, which make
// test exports, or testenv-assets' cache) on an in-process etcd, with the
// CRDs make manifests writes, then reads the
{{- else}}
// server (testenv: in-process, serving the CRDs only, or envtest's binaries
// when KUBEBUILDER_ASSETS is set) with the CRDs make manifests writes, then
// reads the
{{- end}}
// object back from the server{{if .HasStatus}}: each status field the reconciler
// changed on the {{.Kind}} it read must hold what the server stores, so a
// status set but never written (a Flush or Status().Update missing, or a
// no-op) fails; a field it did not change there (another write may set it,
// a server-side apply of another object) is not compared.
// Test{{.Kind}}DecidesOnce runs two reconciles of one {{.Kind}} at once, as a
// stale cache does: both read it before either writes, and together they
// must store no more status writes than one reconcile alone, so a decision
// made twice (a blind status write from the first read) fails{{end}}.

import (
{{- if .HasStatus}}
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"sync"
{{- end}}
	"testing"
{{if .HasStatus}}
	"k8s.io/apimachinery/pkg/api/equality"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
{{- end}}
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
{{- if .HasStatus}}
	kerrors "k8s.io/apimachinery/pkg/util/errors"
{{- end}}
	clientgoscheme "k8s.io/client-go/kubernetes/scheme"
	ctrl "sigs.k8s.io/controller-runtime"
{{- if .HasStatus}}
	"sigs.k8s.io/controller-runtime/pkg/client"
{{- end}}

	"github.com/statuspatch/statuspatch/testenv"

	{{.Alias}} "{{.ImportPath}}"
)

{{if .FullAPI -}}
// startStarter{{.Kind}} starts kube-apiserver (testenv.WithFullAPI: it serves
// the built-in kinds the code uses, Deployments, ConfigMaps..., and the
// project's CRDs), with a scheme of the client-go kinds and the project's, as
// cmd/main.go registers them, and creates a {{.Kind}} named name.
{{- else -}}
// startStarter{{.Kind}} starts testenv's in-process API server with the
// project's CRDs (no built-in kinds: a reconciler that reads or creates
// Deployments, ConfigMaps... needs testenv.WithFullAPI()), with a scheme of
// the client-go kinds and the project's, as cmd/main.go registers them, and
// creates a {{.Kind}} named name.
{{- end}}
func startStarter{{.Kind}}(t *testing.T, name string) (*testenv.Env, {{if .HasScheme}}*runtime.Scheme, {{end}}*{{.Alias}}.{{.Kind}}) {
	t.Helper()
	scheme := runtime.NewScheme()
	if err := clientgoscheme.AddToScheme(scheme); err != nil {
		t.Fatal(err)
	}
	if err := {{.Alias}}.AddToScheme(scheme); err != nil {
		t.Fatal(err)
	}
	env := testenv.Start(t, {{if .FullAPI}}testenv.WithFullAPI(), {{end}}testenv.WithCRDDirectory("{{.CRDDir}}"), testenv.WithScheme(scheme))
	return env, {{if .HasScheme}}scheme, {{end}}createStarter{{.Kind}}(t, env, name)
}

// createStarter{{.Kind}} creates a {{.Kind}} named name.
func createStarter{{.Kind}}(t *testing.T, env *testenv.Env, name string) *{{.Alias}}.{{.Kind}} {
	t.Helper()
	obj := &{{.Alias}}.{{.Kind}}{ObjectMeta: metav1.ObjectMeta{Namespace: "{{.Namespace}}", Name: name}}
	// TODO(user): set the spec fields your reconciler needs.
	if err := env.Client.Create(t.Context(), obj); err != nil {
		t.Fatal(err)
	}
	return obj
}

func Test{{.Kind}}ReconcilerOnTestenv(t *testing.T) {
	env, {{if .HasScheme}}scheme, {{end}}obj := startStarter{{.Kind}}(t, "starter")
	ctx := t.Context()
	key := types.NamespacedName{Namespace: obj.Namespace, Name: obj.Name}
{{- if .HasStatus}}
	reads := &starter{{.Kind}}Client{Client: env.Client, key: key}
	r := &{{.Kind}}Reconciler{Client: reads{{if .HasScheme}}, Scheme: scheme{{end}}}
{{- else}}
	r := &{{.Kind}}Reconciler{Client: env.Client{{if .HasScheme}}, Scheme: scheme{{end}}}
{{- end}}
	if _, err := r.Reconcile(ctx, ctrl.Request{NamespacedName: key}); err != nil {
		t.Fatalf("reconcile %s: %v", key, err)
	}
	// A fresh read of what the server stores: env.Client is uncached, and
	// got is a new object, nothing the reconciler holds.
	got := &{{.Alias}}.{{.Kind}}{}
	if err := env.Client.Get(ctx, key, got); err != nil {
		t.Fatalf("get %s after reconcile: %v", key, err)
	}
	if got.UID != obj.UID {
		t.Fatalf("%s after reconcile has UID %s, want the created object's %s", key, got.UID, obj.UID)
	}
{{- if .HasStatus}}
	if read, left := reads.changed(); left != nil {
		if unsent := starterUnsent(t, read, left, got); unsent != "" {
			t.Fatalf("the reconciler changed the status of %s it read, but the server stores other values:\n%s(a status write missing or failing silently?)", key, unsent)
		}
	}
{{- end}}
	// TODO(user): assert the status your reconciler writes.
}
{{- if .HasStatus}}

func Test{{.Kind}}DecidesOnce(t *testing.T) {
	env, {{if .HasScheme}}scheme, {{end}}once := startStarter{{.Kind}}(t, "starter-once")
	twice := createStarter{{.Kind}}(t, env, "starter-twice")
	// stored runs n reconciles of obj at once and returns the status writes
	// the server stored for it. The reconciles meet after their first read
	// of obj (a barrier: each waits until all have read, or returned), so
	// each decides on the same state; a Conflict is the lock refusing a
	// decision made on a read another write has overtaken (the controller
	// requeues it), any other error fails.
	stored := func(obj *{{.Alias}}.{{.Kind}}, n int) int {
		key := types.NamespacedName{Namespace: obj.Namespace, Name: obj.Name}
		c := &starter{{.Kind}}Client{Client: env.Client, key: key}
		r := &{{.Kind}}Reconciler{Client: c{{if .HasScheme}}, Scheme: scheme{{end}}}
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

// starterArrival is one reconcile at Test{{.Kind}}DecidesOnce's barrier; the
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

// starter{{.Kind}}Client is the reconciler's client in the starter tests:
// it keeps each {{.Kind}} the reconciler reads by key, with the status read,
// and counts the status writes to it the server stored.
type starter{{.Kind}}Client struct {
	client.Client
	key    types.NamespacedName
	mu     sync.Mutex
	objs   []*{{.Alias}}.{{.Kind}}
	reads  []*{{.Alias}}.{{.Kind}} // copies, as read
	writes int
	// seen is every resourceVersion of the key the server answered: a
	// write that changes nothing answers one of them, a write it stored
	// a new one.
	seen map[string]bool
}

func (c *starter{{.Kind}}Client) Get(ctx context.Context, key client.ObjectKey, obj client.Object, opts ...client.GetOption) error {
	err := c.Client.Get(ctx, key, obj, opts...)
	if o, ok := obj.(*{{.Alias}}.{{.Kind}}); ok && err == nil && key == c.key {
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
func (c *starter{{.Kind}}Client) Status() client.SubResourceWriter {
	return &starter{{.Kind}}Status{SubResourceWriter: c.Client.Status(), c: c}
}

// Update and Patch of the {{.Kind}} itself record the resourceVersion the
// server answered, so a status write after them that stores nothing is not
// taken for one that stored.
func (c *starter{{.Kind}}Client) Update(ctx context.Context, obj client.Object, opts ...client.UpdateOption) error {
	return c.answered(obj, c.Client.Update(ctx, obj, opts...))
}

func (c *starter{{.Kind}}Client) Patch(ctx context.Context, obj client.Object, patch client.Patch, opts ...client.PatchOption) error {
	return c.answered(obj, c.Client.Patch(ctx, obj, patch, opts...))
}

// answered records the resourceVersion of the server's answer to a write
// of the key that returned err.
func (c *starter{{.Kind}}Client) answered(obj client.Object, err error) error {
	if err == nil && obj.GetNamespace() == c.key.Namespace && obj.GetName() == c.key.Name {
		c.mu.Lock()
		c.saw(obj.GetResourceVersion())
		c.mu.Unlock()
	}
	return err
}

// saw records rv and says whether the server answered it before; c.mu held.
func (c *starter{{.Kind}}Client) saw(rv string) bool {
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
func (c *starter{{.Kind}}Client) wrote(obj client.Object, err error) error {
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
func (c *starter{{.Kind}}Client) stored() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.writes
}

// changed is the last {{.Kind}} read whose status changed since it was read
// (the one the reconciler set a status on), as read and as left, or nils.
func (c *starter{{.Kind}}Client) changed() (read, left *{{.Alias}}.{{.Kind}}) {
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
func starterUnsent(t *testing.T, read, left, got *{{.Alias}}.{{.Kind}}) string {
	t.Helper()
	status := func(o *{{.Alias}}.{{.Kind}}) map[string]any {
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

// starter{{.Kind}}Status is starter{{.Kind}}Client's status writer.
type starter{{.Kind}}Status struct {
	client.SubResourceWriter
	c *starter{{.Kind}}Client
}

func (s *starter{{.Kind}}Status) Update(ctx context.Context, obj client.Object, opts ...client.SubResourceUpdateOption) error {
	return s.c.wrote(obj, s.SubResourceWriter.Update(ctx, obj, opts...))
}

func (s *starter{{.Kind}}Status) Patch(ctx context.Context, obj client.Object, patch client.Patch, opts ...client.SubResourcePatchOption) error {
	return s.c.wrote(obj, s.SubResourceWriter.Patch(ctx, obj, patch, opts...))
}
{{- end}}
`))
