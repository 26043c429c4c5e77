package scaffold

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestBuiltinKindUses: each shape of a call on a built-in kind that init
// counts (builtinObjectArg), and each it does not, as exact or not at all.
// A case is a file of package p (with corev1 imported) and the uses it
// holds, as builtinUse.String() without the file name.
func TestBuiltinKindUses(t *testing.T) {
	const head = "package p\n\nimport (\n\tcorev1 \"k8s.io/api/core/v1\"\n\tappsv1 \"k8s.io/api/apps/v1\"\n\t\"example.com/other\"\n)\n\nvar _ = appsv1.SchemeGroupVersion\nvar _ = other.X\n\n"
	runUseCases(t, head, []useCase{
		{"Owns a literal", "func f(b B) { b.Owns(&corev1.ConfigMap{}) }",
			[]string{":12: Owns of a corev1.ConfigMap (k8s.io/api/core/v1)"}},
		{"Watches and For", "func f(b B) {\n\tb.For(&appsv1.Deployment{}).\n\t\tWatches(&corev1.Secret{}, nil)\n}",
			[]string{":13: For of a appsv1.Deployment (k8s.io/api/apps/v1)", ":14: Watches of a corev1.Secret (k8s.io/api/core/v1)"}},
		{"Create of a local", "func f(c C) {\n\tcm := &corev1.ConfigMap{}\n\tc.Create(ctx, cm)\n}",
			[]string{":14: Create of a corev1.ConfigMap (k8s.io/api/core/v1)"}},
		{"List of a var", "func f(c C) {\n\tvar l corev1.PodList\n\tc.List(ctx, &l)\n}",
			[]string{":14: List of a corev1.PodList (k8s.io/api/core/v1)"}},
		{"Get into new", "func f(c C) {\n\ts := new(corev1.Secret)\n\tc.Get(ctx, key, s)\n}",
			[]string{":14: Get of a corev1.Secret (k8s.io/api/core/v1)"}},
		{"a parameter, Status().Update", "func f(c C, d *appsv1.Deployment) { c.Status().Update(ctx, d) }",
			[]string{":12: Update of a appsv1.Deployment (k8s.io/api/apps/v1)"}},
		{"a helper's first result", "func (r R) f() {\n\tdep, err := r.deploymentFor()\n\t_ = err\n\tr.Create(ctx, dep)\n}\n\nfunc (r R) deploymentFor() (*appsv1.Deployment, error) { return nil, nil }",
			[]string{":15: Create of a appsv1.Deployment (k8s.io/api/apps/v1)"}},
		{"an index and a metadata watch", "func f(b B, i I) {\n\ti.IndexField(ctx, &corev1.Pod{}, \"spec.nodeName\", nil)\n\tb.WatchesMetadata(&appsv1.Deployment{}, nil)\n}",
			[]string{":13: IndexField of a corev1.Pod (k8s.io/api/core/v1)", ":14: WatchesMetadata of a appsv1.Deployment (k8s.io/api/apps/v1)"}},
		{"CreateOrUpdate", "func f(c C) {\n\tcm := &corev1.ConfigMap{}\n\tcontrollerutil.CreateOrUpdate(ctx, c, cm, nil)\n}",
			[]string{":14: CreateOrUpdate of a corev1.ConfigMap (k8s.io/api/core/v1)"}},
		{"a type assertion", "func f(c C, o any) {\n\tcm, _ := o.(*corev1.ConfigMap)\n\tc.Delete(ctx, cm)\n}",
			[]string{":14: Delete of a corev1.ConfigMap (k8s.io/api/core/v1)"}},

		// not counted
		{"an event type constant", "func f(r R) { r.Event(o, corev1.EventTypeNormal, \"Ready\", \"\") }", nil},
		{"a field of core/v1", "type S struct{ Ref *corev1.ObjectReference }\n\nfunc f(c C, s *S) { c.Update(ctx, s) }", nil},
		{"the project's own kind", "func f(c C) { c.Create(ctx, &Order{}) }\n\n// +kubebuilder:object:root=true\ntype Order struct{}", nil},
		{"a parameter passed on, no caller", "type S struct{ Ref *corev1.ObjectReference }\n\nfunc f(c C, s *S) { c.Update(ctx, s) }", nil},
		{"an RBAC marker", "// +kubebuilder:rbac:groups=core,resources=configmaps,verbs=get;list;watch\nfunc f() {}", nil},

		// may: init cannot tell the kind
		{"a type of the package that is no CRD kind", "type S struct{}\n\nfunc f(c C) { c.Update(ctx, &S{}) }",
			[]string{":14: Update of &S{} may reach the server with a built-in kind: its type, S, is no kind of the project's CRDs (no +kubebuilder:object:root=true)"}},
		{"a name also bound otherwise", "func f(c C, xs []any) {\n\tobj := &corev1.ConfigMap{}\n\t_ = obj\n\tfor _, obj := range xs {\n\t\tc.Create(ctx, obj)\n\t}\n}",
			[]string{":16: Create of obj may reach the server with a built-in kind: obj is declared more than once in the function, with other types"}},
		{"another module's function", "func f(c C) {\n\tcm := other.ConfigMap()\n\tc.Create(ctx, cm)\n}\n\nfunc ConfigMap() *corev1.ConfigMap { return nil }",
			[]string{":14: Create of cm may reach the server with a built-in kind: it is the result of other.ConfigMap, of example.com/other, which init does not resolve"}},
	})
}

// useCase is a file of package p (after a head of imports) and the uses
// builtinKindUses finds in it, as builtinUse.String() without the file name.
type useCase struct {
	name, src string
	want      []string
}

func runUseCases(t *testing.T, head string, cases []useCase) {
	t.Helper()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			writeFile(t, filepath.Join(dir, "p", "p.go"), head+c.src+"\n")
			uses, err := builtinKindUses(dir, "example.com/m")
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, u := range uses {
				got = append(got, u.String()[len("p/p.go"):])
			}
			if !slices.Equal(got, c.want) {
				t.Errorf("uses:\n got %q\nwant %q", got, c.want)
			}
		})
	}
}

// TestBuiltinKindUsesCompiledOnly: only the files go test compiles are
// read, so a harness behind a build tag make test never sets (T's
// /tmp/T-A) is not evidence, nor are testdata, nested modules or hidden
// folders; a test file go test compiles is.
func TestBuiltinKindUsesCompiledOnly(t *testing.T) {
	dir := t.TempDir()
	body := "\n\nimport corev1 \"k8s.io/api/core/v1\"\n\nfunc f(c C) { c.Create(ctx, &corev1.ConfigMap{}) }\n"
	for _, f := range []string{"harness_test.go", "testdata/x/x.go", "nested/x.go", ".hidden/x.go", "_skip/x.go"} {
		src := "package x" + body
		if f == "harness_test.go" {
			src = "//go:build harness\n\npackage p" + body
		}
		writeFile(t, filepath.Join(dir, "p", filepath.FromSlash(f)), src)
	}
	writeFile(t, filepath.Join(dir, "p", "nested", "go.mod"), "module nested\n")
	uses, err := builtinKindUses(dir, "example.com/m")
	if err != nil || len(uses) != 0 {
		t.Fatalf("uses in files go test does not compile: %v, %v", uses, err)
	}
	writeFile(t, filepath.Join(dir, "p", "p_test.go"), "package p"+body)
	uses, err = builtinKindUses(dir, "example.com/m")
	if err != nil || len(uses) != 1 || uses[0].pos != "p/p_test.go:5" {
		t.Fatalf("a test file go test compiles: %v, %v", uses, err)
	}
}

// TestInitSaysSuiteNeedsFullAPI: a suite an earlier init moved onto the
// in-process server (v4.15-crd-only's, after), in a project whose
// reconciler then came to own ConfigMaps (v4.15-owns-configmaps'): init
// does not edit it, and says what to change, naming the calls.
func TestInitSaysSuiteNeedsFullAPI(t *testing.T) {
	dir := t.TempDir()
	copyTree(t, filepath.Join("testdata", "init", "v4.15-crd-only", "after"), dir, nil)
	ctrl := filepath.Join("internal", "controller", "order_controller.go")
	copyTree(t, filepath.Join("testdata", "init", "v4.15-owns-configmaps", "after", ctrl), filepath.Join(dir, ctrl), nil)
	edits, notes, err := planInit(dir, "v0.1.0")
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range edits {
		if e.path == "internal/controller/suite_test.go" {
			t.Errorf("init edits the suite on testenv:\n%s", e.new)
		}
	}
	want := "statuspatch-gen init: internal/controller/suite_test.go starts testenv's in-process server, which serves the CRDs only, but the code make test compiles uses built-in kinds: internal/controller/order_controller.go:45: Create of a corev1.ConfigMap (k8s.io/api/core/v1);"
	if !slices.ContainsFunc(notes, func(n string) bool {
		return strings.HasPrefix(n, want) && strings.Contains(n, "add testenv.WithFullAPI()")
	}) {
		t.Errorf("init does not say the suite needs the full API; notes:\n%s", strings.Join(notes, "\n"))
	}
}

// TestBuiltinKindUsesModule: Exact or Unknown across the module's
// packages (issue 80, R's repros): an object whose kind init cannot tell
// keeps envtest as a use that may reach the server; one it resolves in
// another package of the module is exact; a fake client's calls, and a
// helper's passing its client.Object on, are not uses (its callers are).
// Each case is files of module example.com/shop, whose api/v1 declares
// the root kind Order of group shop.example.com, and its uses.
func TestBuiltinKindUsesModule(t *testing.T) {
	const ctrlHead = "package controller\n\nimport (\n\tcorev1 \"k8s.io/api/core/v1\"\n\t\"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured\"\n\t\"k8s.io/apimachinery/pkg/runtime/schema\"\n\t\"sigs.k8s.io/controller-runtime/pkg/client\"\n\t\"sigs.k8s.io/controller-runtime/pkg/client/fake\"\n\n\tshopv1 \"example.com/shop/api/v1\"\n\t\"example.com/shop/internal/resources\"\n\t\"example.com/lib/helpers\"\n)\n\nvar _ = corev1.SchemeGroupVersion\nvar _ = unstructured.Unstructured{}\nvar _ = schema.GroupVersionKind{}\nvar _ = fake.NewClientBuilder\nvar _ client.Object = &shopv1.Order{}\nvar _ = resources.X\nvar _ = helpers.X\n\n"
	const ctrl = "internal/controller/c.go" // its code starts on line 23
	const secret = "package util\n\nimport (\n\t\"context\"\n\n\t\"sigs.k8s.io/controller-runtime/pkg/client\"\n)\n\n// Value reads key into obj.\nfunc Value(ctx context.Context, c client.Reader, key client.ObjectKey, obj client.Object) error {\n\treturn c.Get(ctx, key, obj)\n}\n"
	runModuleCases(t, []moduleCase{
		{"unstructured of the core group (R-init-unstr)", map[string]string{ctrl: ctrlHead + "func f(c C) {\n\tcm := &unstructured.Unstructured{}\n\tcm.SetGroupVersionKind(schema.GroupVersionKind{Version: \"v1\", Kind: \"ConfigMap\"})\n\tc.Create(ctx, cm)\n}\n"},
			[]string{ctrl + ":26: Create of cm may reach the server with a built-in kind: it is an unstructured.Unstructured of the core group (the project's groups: shop.example.com)"}},
		{"unstructured of the project's group", map[string]string{ctrl: ctrlHead + "func f(c C) {\n\to := &unstructured.Unstructured{}\n\to.SetGroupVersionKind(schema.GroupVersionKind{Group: \"shop.example.com\", Version: \"v1\", Kind: \"Order\"})\n\tc.Create(ctx, o)\n\tl := &unstructured.UnstructuredList{}\n\tl.SetAPIVersion(\"shop.example.com/v1\")\n\tc.List(ctx, l)\n}\n"},
			nil},
		{"unstructured without a GVK literal", map[string]string{ctrl: ctrlHead + "func f(c C, gvk schema.GroupVersionKind) {\n\to := &unstructured.Unstructured{}\n\to.SetGroupVersionKind(gvk)\n\tc.Create(ctx, o)\n}\n"},
			[]string{ctrl + ":26: Create of o may reach the server with a built-in kind: it is an unstructured.Unstructured whose group is of no literal, constant or GroupVersion of the module (the project's groups: shop.example.com)"}},
		{"a function of another package of the module (R-init-otherpkg)", map[string]string{
			ctrl:                              ctrlHead + "func f(c C) {\n\tcm := resources.ConfigMap(\"a\")\n\tc.Create(ctx, cm)\n}\n",
			"internal/resources/configmap.go": "package resources\n\nimport corev1 \"k8s.io/api/core/v1\"\n\nvar X int\n\nfunc ConfigMap(name string) *corev1.ConfigMap { return nil }\n"},
			[]string{ctrl + ":25: Create of a corev1.ConfigMap (k8s.io/api/core/v1)"}},
		{"a function of a dependency", map[string]string{ctrl: ctrlHead + "func f(c C) {\n\tcm := helpers.ConfigMap(\"a\")\n\tc.Create(ctx, cm)\n}\n"},
			[]string{ctrl + ":25: Create of cm may reach the server with a built-in kind: it is the result of helpers.ConfigMap, of example.com/lib/helpers, which init does not resolve"}},
		{"a fake client's Get, a helper without callers (R-init-fake)", map[string]string{
			"internal/util/secret.go":      secret,
			"internal/util/secret_test.go": "package util\n\nimport (\n\t\"testing\"\n\n\tcorev1 \"k8s.io/api/core/v1\"\n\t\"sigs.k8s.io/controller-runtime/pkg/client\"\n\t\"sigs.k8s.io/controller-runtime/pkg/client/fake\"\n)\n\nfunc TestValue(t *testing.T) {\n\tc := fake.NewClientBuilder().WithObjects(&corev1.Secret{}).Build()\n\tif err := c.Get(t.Context(), client.ObjectKey{}, &corev1.Secret{}); err != nil {\n\t\tt.Fatal(err)\n\t}\n\t_ = c.Status().Update(t.Context(), &corev1.Pod{})\n}\n"},
			nil},
		{"a helper's caller", map[string]string{
			"internal/util/secret.go": secret,
			ctrl:                      ctrlHead + "func f(c C) {\n\tutil.Value(ctx, c, key, &corev1.Secret{})\n}\n"},
			[]string{ctrl + ":24: Value of a corev1.Secret (k8s.io/api/core/v1)"}},
		{"a fake client reassigned", map[string]string{ctrl: ctrlHead + "func f(real client.Client) {\n\tc := fake.NewClientBuilder().Build()\n\tc = real\n\tc.Get(ctx, key, &corev1.Secret{})\n}\n"},
			[]string{ctrl + ":26: Get of a corev1.Secret (k8s.io/api/core/v1)"}},
		{"a function held in a field (U2's generic reconciler)", map[string]string{ctrl: ctrlHead + "type R[T client.Object] struct {\n\tC   client.Client\n\tNew func() T\n}\n\nfunc (r *R[T]) f() {\n\tobj := r.New()\n\tr.C.Get(ctx, key, obj)\n}\n"},
			[]string{ctrl + ":30: Get of obj may reach the server with a built-in kind: it is the result of r.New, called on r: a method or a field holding a function, whose values init does not follow"}},
		{"a helper used as a value", map[string]string{ctrl: ctrlHead + "func ensure(c client.Client, obj client.Object) error { return c.Create(ctx, obj) }\n\nvar _ = ensure\n"},
			[]string{ctrl + ":23: Create of obj may reach the server with a built-in kind: its type, client.Object, is an interface"}},
		{"a dynamic client", map[string]string{"internal/d/d.go": "package d\n\nimport \"k8s.io/client-go/dynamic\"\n\nvar _ dynamic.Interface\n"},
			[]string{"internal/d/d.go:3: imports k8s.io/client-go/dynamic, whose clients reach any kind, built-in ones too"}},
		{"Ginkgo's Describe", map[string]string{ctrl: ctrlHead + "var _ = Describe(\"Order\", func() {\n\torder := &shopv1.Order{}\n\tIt(\"reconciles\", func() {\n\t\tk8sClient.Create(ctx, order)\n\t\tk8sClient.Delete(ctx, &corev1.Secret{})\n\t})\n})\n"},
			[]string{ctrl + ":27: Delete of a corev1.Secret (k8s.io/api/core/v1)"}},
		{"package-level variables", map[string]string{ctrl: ctrlHead + "var ns = &corev1.Namespace{}\n\nvar order shopv1.Order\n\nvar a, b = b, a\n\nfunc f(c C) {\n\tc.Create(ctx, ns)\n\tc.Create(ctx, &order)\n\tc.Create(ctx, a)\n}\n"},
			[]string{ctrl + ":30: Create of a corev1.Namespace (k8s.io/api/core/v1)", ctrl + ":32: Create of a may reach the server with a built-in kind: a's value refers to itself"}},
		{"a kind of a nested API module", map[string]string{
			"apis/go.mod":             "module example.com/shopapis\n",
			"apis/v2/types.go":        "package v2\n\n// +kubebuilder:object:root=true\ntype Cart struct{}\n",
			"internal/cart/cart.go":   "package cart\n\nimport cartv2 \"example.com/shopapis/v2\"\n\nfunc f(c C) { c.Create(ctx, &cartv2.Cart{}) }\n",
			"apis/v2/uses_builtin.go": "package v2\n\nimport corev1 \"k8s.io/api/core/v1\"\n\nfunc f(c C) { c.Create(ctx, &corev1.Secret{}) }\n",
			"apis/v2/types_test.go":   "package v2\n\nimport corev1 \"k8s.io/api/core/v1\"\n\nfunc g(c C) { c.Create(ctx, &corev1.Secret{}) }\n"},
			nil},
		{"a package's own For, called bare (the generated patchers' ForType)", map[string]string{
			"internal/patchers/p.go":   "package patchers\n\nimport \"sigs.k8s.io/controller-runtime/pkg/client\"\n\nfunc For(c client.Client, obj client.Object) (int, error) { return 0, nil }\n\nfunc ForType[T client.Object](c client.Client, obj T) (int, error) { return For(c, obj) }\n",
			"internal/controller/p.go": "package controller\n\nimport (\n\t\"sigs.k8s.io/controller-runtime/pkg/client\"\n\n\tshopv1 \"example.com/shop/api/v1\"\n\t\"example.com/shop/internal/patchers\"\n)\n\nfunc patchStatus[T client.Object](c client.Client, obj T) error {\n\t_, err := patchers.ForType(c, obj)\n\treturn err\n}\n\nfunc f(r R) { patchStatus(r.Client, &shopv1.Order{}) }\n"},
			nil},
		{"a list's Items", map[string]string{ctrl: ctrlHead + "func f(c C) {\n\tvar pods corev1.PodList\n\tfor i := range pods.Items {\n\t\tc.Delete(ctx, &pods.Items[i])\n\t}\n\tvar orders shopv1.OrderList\n\tfor _, o := range orders.Items {\n\t\tc.Update(ctx, &o)\n\t}\n}\n"},
			[]string{ctrl + ":26: Delete of a corev1.Pod (k8s.io/api/core/v1)"}},
	})
}

// moduleCase is files of module example.com/shop, whose api/v1 declares
// the root kind Order of group shop.example.com, and the uses
// builtinKindUses finds in them, as builtinUse.String().
type moduleCase struct {
	name  string
	files map[string]string
	want  []string
}

func runModuleCases(t *testing.T, cases []moduleCase) {
	t.Helper()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			writeFile(t, filepath.Join(dir, "api", "v1", "groupversion_info.go"), shopGroupVersion)
			writeFile(t, filepath.Join(dir, "api", "v1", "order_types.go"), "package v1\n\n// +kubebuilder:object:root=true\ntype Order struct{}\n\n// +kubebuilder:object:root=true\ntype OrderList struct{ Items []Order }\n")
			for name, src := range c.files {
				writeFile(t, filepath.Join(dir, filepath.FromSlash(name)), src)
			}
			uses, err := builtinKindUses(dir, "example.com/shop")
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, u := range uses {
				got = append(got, u.String())
			}
			if !slices.Equal(got, c.want) {
				t.Errorf("uses:\n got %q\nwant %q", got, c.want)
			}
		})
	}
}

// TestInitSuiteWhereKindsAreUnknown: init on kubebuilder v4.15's
// CRD-only project (v4.15-crd-only, whose suite it moves onto testenv)
// with R's additions: an unstructured ConfigMap keeps the suite on
// envtest, and init says the call may reach the server; a fake client's
// Get of a Secret, in a unit test, does not keep it.
func TestInitSuiteWhereKindsAreUnknown(t *testing.T) {
	const suite = "internal/controller/suite_test.go"
	cases := []struct {
		name, file, src string
		keep            string // the note's start where the suite stays; "" where it moves
	}{
		{"unstructured", "internal/controller/items.go", "package controller\n\nimport (\n\t\"context\"\n\n\t\"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured\"\n\t\"k8s.io/apimachinery/pkg/runtime/schema\"\n\t\"sigs.k8s.io/controller-runtime/pkg/client\"\n)\n\nfunc createItem(ctx context.Context, c client.Client) error {\n\tcm := &unstructured.Unstructured{}\n\tcm.SetGroupVersionKind(schema.GroupVersionKind{Version: \"v1\", Kind: \"ConfigMap\"})\n\treturn c.Create(ctx, cm)\n}\n",
			"statuspatch-gen init: " + suite + " stays on envtest, as the code make test compiles may use built-in kinds (init cannot tell these objects' kinds), which testenv's in-process server does not serve: internal/controller/items.go:14: Create of cm may reach the server with a built-in kind: it is an unstructured.Unstructured of the core group (the project's groups: the module declares none: no +groupName);"},
		{"a fake client", "internal/util/secret_test.go", "package util\n\nimport (\n\t\"testing\"\n\n\tcorev1 \"k8s.io/api/core/v1\"\n\t\"sigs.k8s.io/controller-runtime/pkg/client\"\n\t\"sigs.k8s.io/controller-runtime/pkg/client/fake\"\n)\n\nfunc TestValue(t *testing.T) {\n\tc := fake.NewClientBuilder().Build()\n\tif err := c.Get(t.Context(), client.ObjectKey{}, &corev1.Secret{}); err != nil {\n\t\tt.Fatal(err)\n\t}\n}\n", ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			copyTree(t, filepath.Join("testdata", "init", "v4.15-crd-only", "before"), dir, nil)
			writeFile(t, filepath.Join(dir, filepath.FromSlash(c.file)), c.src)
			edits, notes, err := planInit(dir, "v0.1.0")
			if err != nil {
				t.Fatal(err)
			}
			moved := slices.ContainsFunc(edits, func(e fileEdit) bool { return e.path == suite })
			kept := slices.ContainsFunc(notes, func(n string) bool { return c.keep != "" && strings.HasPrefix(n, c.keep) })
			if c.keep == "" && !moved || c.keep != "" && (moved || !kept) {
				t.Errorf("suite moved: %v; notes:\n%s", moved, strings.Join(notes, "\n"))
			}
		})
	}
}
