package scaffold

import "text/template"

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
// stale cache does: both read it before either writes, and a status write
// the server stores over a state its reconcile had not read (the other's
// write, under a blind patch from the first read) fails it; a write under
// the lock is refused (a Conflict) and re-decided on a fresh read, and a
// write that changes nothing stores nothing{{end}}.

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
	apimeta "k8s.io/apimachinery/pkg/api/meta"
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

// createStarter{{.Kind}} creates a {{.Kind}} named name{{if .Spec}}, with the spec
// fields its CRD requires set (statuspatch-gen init read its schema){{end}}.
func createStarter{{.Kind}}(t *testing.T, env *testenv.Env, name string) *{{.Alias}}.{{.Kind}} {
	t.Helper()
	obj := &{{.Alias}}.{{.Kind}}{ObjectMeta: metav1.ObjectMeta{Namespace: "{{.Namespace}}", Name: name}}
{{- range .Spec}}
	{{.}}
{{- end}}
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
	env, {{if .HasScheme}}scheme, {{end}}obj := startStarter{{.Kind}}(t, "starter-twice")
	key := types.NamespacedName{Namespace: obj.Namespace, Name: obj.Name}
	c := &starter{{.Kind}}Client{Client: env.Client, key: key}
	r := &{{.Kind}}Reconciler{Client: c{{if .HasScheme}}, Scheme: scheme{{end}}}
	// Two reconciles of obj at once, met after their first read of it (a
	// barrier: each waits until both have read, or returned), so both
	// decide on the same state. A Conflict is the lock refusing a write
	// from a read another write has overtaken (the controller requeues
	// it); any other error fails.
	const n = 2
	all := &sync.WaitGroup{}
	all.Add(n)
	errs := make(chan error, n)
	for i := range n {
		go func() {
			a := &starterArrival{n: i + 1, all: all}
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
	overwrote, unknown := c.judged()
	for _, u := range unknown {
		t.Log(u)
	}
	if len(overwrote) > 0 {
		t.Fatalf("two reconciles of %s that read it before either wrote:\n%s", key, strings.Join(overwrote, "\n"))
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

// starterArrival is one reconcile of Test{{.Kind}}DecidesOnce, the n-th,
// at its barrier; the reconcile's context carries it under
// starterArrivalKey.
type starterArrival struct {
	n    int
	once sync.Once
	all  *sync.WaitGroup
	// known is the resourceVersion of the key the reconcile last had from
	// the server: its Get, an item of its List, the answer to its own
	// write; "" before any (starter{{.Kind}}Client.mu guards it).
	known string
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
// and judges each status write of the key on the server's answers. Writes
// of the key are serialized and each reads the stored resourceVersion
// first, so what a write stored over is known exactly; a status write that
// stored (its answer has a new resourceVersion) over one its reconcile had
// not had from the server is a decision made on a read another write had
// acted on. A write that changes nothing stores nothing (its answer keeps
// the resourceVersion) and overwrites nothing.
type starter{{.Kind}}Client struct {
	client.Client
	key types.NamespacedName
	// writing serializes the writes of the key.
	writing sync.Mutex
	mu      sync.Mutex
	objs    []*{{.Alias}}.{{.Kind}}
	reads   []*{{.Alias}}.{{.Kind}} // copies, as read
	// overwrote says each status write stored over a resourceVersion its
	// reconcile had not had; unknown each one that could not be judged.
	overwrote, unknown []string
}

func (c *starter{{.Kind}}Client) Get(ctx context.Context, key client.ObjectKey, obj client.Object, opts ...client.GetOption) error {
	err := c.Client.Get(ctx, key, obj, opts...)
	if o, ok := obj.(*{{.Alias}}.{{.Kind}}); ok && err == nil && key == c.key {
		c.mu.Lock()
		c.objs = append(c.objs, o)
		c.reads = append(c.reads, o.DeepCopy())
		c.mu.Unlock()
		c.had(ctx, o.ResourceVersion)
	}
	return err
}

// List records the key's item, if the list has it, as the reconcile's read.
func (c *starter{{.Kind}}Client) List(ctx context.Context, list client.ObjectList, opts ...client.ListOption) error {
	if err := c.Client.List(ctx, list, opts...); err != nil {
		return err
	}
	return apimeta.EachListItem(list, func(o runtime.Object) error {
		if item, ok := o.(*{{.Alias}}.{{.Kind}}); ok && item.Namespace == c.key.Namespace && item.Name == c.key.Name {
			c.had(ctx, item.ResourceVersion)
		}
		return nil
	})
}

// had records rv as the resourceVersion of the key ctx's reconcile has from
// the server, and brings it to the barrier.
func (c *starter{{.Kind}}Client) had(ctx context.Context, rv string) {
	a, ok := ctx.Value(starterArrivalKey{}).(*starterArrival)
	if !ok {
		return
	}
	c.mu.Lock()
	a.known = rv
	c.mu.Unlock()
	a.arrive(true)
}

// Status judges the status writes of the key.
func (c *starter{{.Kind}}Client) Status() client.SubResourceWriter {
	return &starter{{.Kind}}Status{SubResourceWriter: c.Client.Status(), c: c}
}

// Update and Patch of the {{.Kind}} itself are serialized with the status
// writes, and their answers are what the reconcile has from the server.
func (c *starter{{.Kind}}Client) Update(ctx context.Context, obj client.Object, opts ...client.UpdateOption) error {
	return c.write(ctx, obj, "", func() error { return c.Client.Update(ctx, obj, opts...) })
}

func (c *starter{{.Kind}}Client) Patch(ctx context.Context, obj client.Object, patch client.Patch, opts ...client.PatchOption) error {
	return c.write(ctx, obj, "", func() error { return c.Client.Patch(ctx, obj, patch, opts...) })
}

// write runs do, a write of obj (what, "status update" or "status patch",
// for a status write; "" for one of the object): when obj is the key's
// {{.Kind}}, after the writes of it before, reading the resourceVersion
// stored before it, and judging what it stored.
func (c *starter{{.Kind}}Client) write(ctx context.Context, obj client.Object, what string, do func() error) error {
	if _, ok := obj.(*{{.Alias}}.{{.Kind}}); !ok || obj.GetNamespace() != c.key.Namespace || obj.GetName() != c.key.Name {
		return do()
	}
	c.writing.Lock()
	defer c.writing.Unlock()
	stored := &{{.Alias}}.{{.Kind}}{}
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
	switch {
	case what == "" || after == before:
	case !ok:
		c.unknown = append(c.unknown, fmt.Sprintf("Unknown: a %s of %s stored resourceVersion %s over %s from a context that is not a reconcile's (not the ctx Reconcile was given?); not judged", what, c.key, after, before))
	case a.known == "":
		c.unknown = append(c.unknown, fmt.Sprintf("Unknown: reconcile %d's %s of %s stored resourceVersion %s over %s, and it read %s through no Get or List of this client; not judged", a.n, what, c.key, after, before, c.key))
	case a.known != before:
		c.overwrote = append(c.overwrote, fmt.Sprintf("reconcile %d, which last read %s at resourceVersion %s, stored resourceVersion %s with a %s over %s, a state it had not read: it made its decision again on a read another write had acted on (a status write without the resourceVersion it read, a blind patch?)", a.n, c.key, a.known, after, what, before))
	}
	if ok {
		a.known = after
	}
	return nil
}

// judged is what the status writes of the key overwrote, and the ones not
// judged.
func (c *starter{{.Kind}}Client) judged() (overwrote, unknown []string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return slices.Clone(c.overwrote), slices.Clone(c.unknown)
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
	return s.c.write(ctx, obj, "status update", func() error { return s.SubResourceWriter.Update(ctx, obj, opts...) })
}

func (s *starter{{.Kind}}Status) Patch(ctx context.Context, obj client.Object, patch client.Patch, opts ...client.SubResourcePatchOption) error {
	return s.c.write(ctx, obj, "status patch", func() error { return s.SubResourceWriter.Patch(ctx, obj, patch, opts...) })
}
{{- end}}
`))
