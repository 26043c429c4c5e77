package scaffold

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"text/template"

	"sigs.k8s.io/yaml"
)

// kubebuilderV4 is the PROJECT layout statuspatch-gen init knows.
const kubebuilderV4 = "go.kubebuilder.io/v4"

// kbProject is the part of kubebuilder's PROJECT file init reads.
type kbProject struct {
	Layout     json.RawMessage `json:"layout"` // a list; a string in old files
	MultiGroup bool            `json:"multigroup"`
	Repo       string          `json:"repo"` // the module path
	Resources  []kbResource    `json:"resources"`
}

type kbResource struct {
	API *struct {
		Namespaced bool `json:"namespaced"`
	} `json:"api"`
	Controller bool `json:"controller"`
	// Controllers are a kind's named controllers (kubebuilder v4.13+'s
	// create api --controller-name, more than one per kind).
	Controllers []struct {
		Name string `json:"name"`
	} `json:"controllers"`
	// Webhooks are the kind's webhooks (defaulting, validation,
	// conversion); null or absent without.
	Webhooks json.RawMessage `json:"webhooks"`
	External bool            `json:"external"`
	Core     bool            `json:"core"`
	Group    string          `json:"group"`
	Version  string          `json:"version"`
	Kind     string          `json:"kind"`
	Path     string          `json:"path"`
}

// readProject reads dir/PROJECT and refuses anything but a kubebuilder v4
// project: "path: what is wrong".
func readProject(dir string) (*kbProject, error) {
	file := filepath.Join(dir, "PROJECT")
	data, err := os.ReadFile(file)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("%s: no such file: statuspatch-gen init runs in a kubebuilder v4 project (a PROJECT file with layout %s, and its Makefile)", file, kubebuilderV4)
	}
	if err != nil {
		return nil, fmt.Errorf("statuspatch-gen init: %w", err)
	}
	var p kbProject
	if err := yaml.Unmarshal(data, &p); err != nil {
		return nil, fmt.Errorf("%s: not a kubebuilder PROJECT file: %w", file, err)
	}
	var layouts []string
	if len(p.Layout) > 0 {
		var one string
		if json.Unmarshal(p.Layout, &layouts) != nil && json.Unmarshal(p.Layout, &one) == nil {
			layouts = []string{one}
		}
	}
	if !slices.Contains(layouts, kubebuilderV4) {
		return nil, fmt.Errorf("%s:%d: layout is %q, not %s: statuspatch-gen init knows kubebuilder v4 projects only", file, lineOf(data, "layout:"), layouts, kubebuilderV4)
	}
	if !fileExists(filepath.Join(dir, "Makefile")) {
		return nil, fmt.Errorf("%s: no such file: statuspatch-gen init edits the Makefile kubebuilder v4 scaffolds", filepath.Join(dir, "Makefile"))
	}
	return &p, nil
}

// lineOf is the 1-based line of the first line starting with prefix, or 1.
func lineOf(data []byte, prefix string) int {
	for i, l := range bytes.Split(data, []byte("\n")) {
		if bytes.HasPrefix(l, []byte(prefix)) {
			return i + 1
		}
	}
	return 1
}

// starterKind is what the starter test needs of the first kind with a
// controller.
type starterKind struct {
	Package, Kind, Alias, ImportPath, CRDDir, Namespace string
	HasScheme                                           bool
	// HasStatus: the kind's type (in the API package's folder, found from
	// PROJECT's repo and path) has a Status field, which the test compares.
	HasStatus bool
}

// starterTest returns the starter test's path and text for the project's
// first kind with a controller, or a note saying why there is none.
func starterTest(dir string, p *kbProject) (rel, content, note string, err error) {
	var r *kbResource
	for i := range p.Resources {
		res := &p.Resources[i]
		if res.API != nil && (res.Controller || len(res.Controllers) > 0) && !res.External && !res.Core && res.Kind != "" && res.Path != "" {
			r = res
			break
		}
	}
	if r == nil {
		return "", "", "statuspatch-gen init: no starter test: PROJECT has no kind with an API and a controller (kubebuilder create api --resource --controller)", nil
	}
	ctrlDir, crdDir := "internal/controller", "../../config/crd"
	if p.MultiGroup {
		ctrlDir, crdDir = path.Join(ctrlDir, r.Group), "../../../config/crd"
	}
	pkg, fields, err := reconcilerFields(filepath.Join(dir, filepath.FromSlash(ctrlDir)), r.Kind+"Reconciler")
	if err != nil {
		return "", "", "", err
	}
	if pkg == "" || !slices.Contains(fields, "Client") {
		return "", "", fmt.Sprintf("statuspatch-gen init: no starter test: %s has no type %sReconciler with a Client field", ctrlDir, r.Kind), nil
	}
	k := starterKind{
		Package:    pkg,
		Kind:       r.Kind,
		Alias:      importAlias(r.Group, r.Version),
		ImportPath: r.Path,
		CRDDir:     crdDir,
		HasScheme:  slices.Contains(fields, "Scheme"),
	}
	if rel, ok := strings.CutPrefix(r.Path, p.Repo+"/"); ok && p.Repo != "" {
		_, kindFields, err := reconcilerFields(filepath.Join(dir, filepath.FromSlash(rel)), r.Kind)
		if err != nil {
			return "", "", "", err
		}
		k.HasStatus = slices.Contains(kindFields, "Status")
	}
	if r.API.Namespaced {
		k.Namespace = "default"
	}
	var b strings.Builder
	if err := starterTemplate.Execute(&b, k); err != nil {
		return "", "", "", fmt.Errorf("statuspatch-gen init: starter test for %s: %w", r.Kind, err)
	}
	return path.Join(ctrlDir, strings.ToLower(r.Kind)+"_testenv_test.go"), b.String(), "", nil
}

// reconcilerFields parses the non-test Go files of dir and returns their
// package name and the field names of struct type name (an embedded
// client.Client counts as Client); no package name when the type is absent.
func reconcilerFields(dir, name string) (pkg string, fields []string, err error) {
	entries, err := os.ReadDir(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return "", nil, nil
	}
	if err != nil {
		return "", nil, fmt.Errorf("statuspatch-gen init: %w", err)
	}
	fset := token.NewFileSet()
	for _, e := range entries {
		n := e.Name()
		if e.IsDir() || !strings.HasSuffix(n, ".go") || strings.HasSuffix(n, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, filepath.Join(dir, n), nil, parser.SkipObjectResolution)
		if err != nil {
			return "", nil, fmt.Errorf("statuspatch-gen init: %w", err)
		}
		for _, d := range f.Decls {
			gd, ok := d.(*ast.GenDecl)
			if !ok || gd.Tok != token.TYPE {
				continue
			}
			for _, s := range gd.Specs {
				ts := s.(*ast.TypeSpec)
				st, ok := ts.Type.(*ast.StructType)
				if ts.Name.Name != name || !ok {
					continue
				}
				for _, fl := range st.Fields.List {
					for _, id := range fl.Names {
						fields = append(fields, id.Name)
					}
					if len(fl.Names) == 0 {
						if sel, ok := fl.Type.(*ast.SelectorExpr); ok {
							fields = append(fields, sel.Sel.Name)
						}
					}
				}
				return f.Name.Name, fields, nil
			}
		}
	}
	return "", nil, nil
}

// importAlias is kubebuilder's alias of an API package: group and version
// run together (crewv1), letters and digits only.
func importAlias(group, version string) string {
	var b strings.Builder
	for _, c := range strings.ToLower(group + version) {
		if c >= 'a' && c <= 'z' || c >= '0' && c <= '9' {
			b.WriteRune(c)
		}
	}
	return b.String()
}

var starterTemplate = template.Must(template.New("starter").Parse(`package {{.Package}}

// Written by statuspatch-gen init as a starting point; it is yours to edit
// (init does not write it again). It runs the reconciler once against a
// real API server (testenv: in-process, or envtest's binaries when make test
// exports KUBEBUILDER_ASSETS) with the CRDs make manifests writes, then
// reads the object back from the server{{if .HasStatus}}: the status the reconciler left on
// the {{.Kind}} it read must be the one the server stores, so a status set
// but never written (a Flush or Status().Update missing, or a no-op) fails{{end}}.

import (
{{- if .HasStatus}}
	"context"
	"slices"
{{- end}}
	"testing"
{{if .HasStatus}}
	"k8s.io/apimachinery/pkg/api/equality"
{{- end}}
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	clientgoscheme "k8s.io/client-go/kubernetes/scheme"
	ctrl "sigs.k8s.io/controller-runtime"
{{- if .HasStatus}}
	"sigs.k8s.io/controller-runtime/pkg/client"
{{- end}}

	"github.com/statuspatch/statuspatch/testenv"

	{{.Alias}} "{{.ImportPath}}"
)

func Test{{.Kind}}ReconcilerOnTestenv(t *testing.T) {
	// The built-in kinds (a reconciler reads and creates Deployments...),
	// then the project's, as cmd/main.go registers them.
	scheme := runtime.NewScheme()
	if err := clientgoscheme.AddToScheme(scheme); err != nil {
		t.Fatal(err)
	}
	if err := {{.Alias}}.AddToScheme(scheme); err != nil {
		t.Fatal(err)
	}
	env := testenv.Start(t, testenv.WithCRDDirectory("{{.CRDDir}}"), testenv.WithScheme(scheme))
	ctx := t.Context()
	key := types.NamespacedName{Namespace: "{{.Namespace}}", Name: "starter"}
	obj := &{{.Alias}}.{{.Kind}}{ObjectMeta: metav1.ObjectMeta{Namespace: key.Namespace, Name: key.Name}}
	// TODO(user): set the spec fields your reconciler needs.
	if err := env.Client.Create(ctx, obj); err != nil {
		t.Fatal(err)
	}
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
	if left := reads.changed(); left != nil && !equality.Semantic.DeepEqual(left.Status, got.Status) {
		t.Fatalf("the reconciler left %s with status\n%+v\nbut the server stores\n%+v\n(a status write missing or failing silently?)", key, left.Status, got.Status)
	}
{{- end}}
	// TODO(user): assert the status your reconciler writes.
}
{{- if .HasStatus}}

// starter{{.Kind}}Client is the reconciler's client in Test{{.Kind}}ReconcilerOnTestenv:
// it keeps each {{.Kind}} the reconciler reads by key, with the status read.
type starter{{.Kind}}Client struct {
	client.Client
	key   types.NamespacedName
	objs  []*{{.Alias}}.{{.Kind}}
	reads []*{{.Alias}}.{{.Kind}} // copies, as read
}

func (c *starter{{.Kind}}Client) Get(ctx context.Context, key client.ObjectKey, obj client.Object, opts ...client.GetOption) error {
	err := c.Client.Get(ctx, key, obj, opts...)
	if o, ok := obj.(*{{.Alias}}.{{.Kind}}); ok && err == nil && key == c.key {
		c.objs = append(c.objs, o)
		c.reads = append(c.reads, o.DeepCopy())
	}
	return err
}

// changed is the last {{.Kind}} read whose status changed since it was read
// (the one the reconciler set a status on), or nil.
func (c *starter{{.Kind}}Client) changed() *{{.Alias}}.{{.Kind}} {
	for i, o := range slices.Backward(c.objs) {
		if !equality.Semantic.DeepEqual(o.Status, c.reads[i].Status) {
			return o
		}
	}
	return nil
}
{{- end}}
`))
