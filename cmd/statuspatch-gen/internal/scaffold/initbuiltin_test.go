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
	cases := []struct {
		name, src string
		want      []string
	}{
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
		{"CreateOrUpdate", "func f(c C) {\n\tcm := &corev1.ConfigMap{}\n\tcontrollerutil.CreateOrUpdate(ctx, c, cm, nil)\n}",
			[]string{":14: CreateOrUpdate of a corev1.ConfigMap (k8s.io/api/core/v1)"}},
		{"a type assertion", "func f(c C, o any) {\n\tcm, _ := o.(*corev1.ConfigMap)\n\tc.Delete(ctx, cm)\n}",
			[]string{":14: Delete of a corev1.ConfigMap (k8s.io/api/core/v1)"}},

		// not counted
		{"an event type constant", "func f(r R) { r.Event(o, corev1.EventTypeNormal, \"Ready\", \"\") }", nil},
		{"a field of core/v1", "type S struct{ Ref *corev1.ObjectReference }\n\nfunc f(c C, s *S) { c.Update(ctx, s) }", nil},
		{"the project's own kind", "func f(c C) { c.Create(ctx, &Order{}) }", nil},
		{"a name also bound otherwise", "func f(c C, xs []any) {\n\tobj := &corev1.ConfigMap{}\n\t_ = obj\n\tfor _, obj := range xs {\n\t\tc.Create(ctx, obj)\n\t}\n}", nil},
		{"another package's function", "func f(c C) {\n\tcm := other.ConfigMap()\n\tc.Create(ctx, cm)\n}\n\nfunc ConfigMap() *corev1.ConfigMap { return nil }", nil},
		{"an RBAC marker", "// +kubebuilder:rbac:groups=core,resources=configmaps,verbs=get;list;watch\nfunc f() {}", nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			writeFile(t, filepath.Join(dir, "p", "p.go"), head+c.src+"\n")
			uses, err := builtinKindUses(dir)
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
	uses, err := builtinKindUses(dir)
	if err != nil || len(uses) != 0 {
		t.Fatalf("uses in files go test does not compile: %v, %v", uses, err)
	}
	writeFile(t, filepath.Join(dir, "p", "p_test.go"), "package p"+body)
	uses, err = builtinKindUses(dir)
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
