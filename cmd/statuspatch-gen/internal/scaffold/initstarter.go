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
// write that changes nothing stores nothing. A stored write that changes a
// status value the other reconcile's stored write set, in one generation,
// more often than two reconciles one after the other do (a decision made
// on the first read, written after a re-read) fails it too; values that
// differ only in time (RFC 3339 times, durations) are logged, not judged{{end}}.

import (
{{- if or .HasStatus .Setup}}
	"context"
{{- end}}
{{- if .HasStatus}}
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"regexp"
{{- end}}
{{- if or .HasStatus .Setup}}
	"slices"
{{- end}}
{{- if .HasStatus}}
	"strings"
	"sync"
{{- end}}
{{- if .Setup}}
	"net/http"
{{- end}}
	"testing"
{{- if .HasStatus}}
	"time"
{{- end}}
{{if .HasStatus}}
	"k8s.io/apimachinery/pkg/api/equality"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
{{- end}}
{{- if or .HasStatus .Setup}}
	apimeta "k8s.io/apimachinery/pkg/api/meta"
{{- end}}
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
{{- if .HasStatus}}
	kerrors "k8s.io/apimachinery/pkg/util/errors"
{{- end}}
	clientgoscheme "k8s.io/client-go/kubernetes/scheme"
{{- if .Setup}}
	"k8s.io/client-go/rest"
{{- end}}
{{- range .SpecImports}}
	{{.Name}} "{{.Path}}"
{{- end}}
	ctrl "sigs.k8s.io/controller-runtime"
{{- if .Setup}}
	"sigs.k8s.io/controller-runtime/pkg/cache"
{{- end}}
{{- if or .HasStatus .Setup}}
	"sigs.k8s.io/controller-runtime/pkg/client"
{{- end}}
{{- if .Setup}}
	"sigs.k8s.io/controller-runtime/pkg/config"
{{- end}}

	"github.com/statuspatch/statuspatch/testenv"

	{{.Alias}} "{{.ImportPath}}"
{{- range .ModImports}}
	{{.Name}} "{{.Path}}"
{{- end}}
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
{{- if .SetupTODO}}
	// TODO(user): {{.SetupTODO}}: set the same on r.
{{- end}}
{{- if .BuiltTODO}}
	// TODO(user): {{.BuiltTODO}} on the reconciler: set the same on r.
{{- end}}
{{- if and .HasStatus .Setup}}
	r := &{{.Kind}}Reconciler{Client: env.Client{{if .HasScheme}}, Scheme: scheme{{end}}}
	reads := &starter{{.Kind}}Client{Client: starterSetUp{{.Kind}}(t, env, r), key: key}
	r.Client = reads
{{- else if .HasStatus}}
	reads := &starter{{.Kind}}Client{Client: env.Client, key: key}
	r := &{{.Kind}}Reconciler{Client: reads{{if .HasScheme}}, Scheme: scheme{{end}}}
{{- else}}
	r := &{{.Kind}}Reconciler{Client: env.Client{{if .HasScheme}}, Scheme: scheme{{end}}}
{{- if .Setup}}
	r.Client = starterSetUp{{.Kind}}(t, env, r)
{{- end}}
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
{{template "decides" .}}
{{- end}}
{{- if .Setup}}
{{template "setup" .}}
{{- end}}
`))
