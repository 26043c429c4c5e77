package scaffold

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestBuiltinKindUsesApplyAndSources: a server-side apply of a built-in
// kind's apply configuration (client.Apply, Status().Apply), as built or
// through its With setters, and a source of a built-in kind
// (WatchesRawSource(source.Kind(...)), instantiated or not) reach the
// server with that kind (reviewer R's /tmp/R4-init: init chose testenv,
// and the suite failed with `no matches for kind "ConfigMap"`); an apply
// configuration init cannot resolve may (issue 80: the safe side, envtest).
func TestBuiltinKindUsesApplyAndSources(t *testing.T) {
	const head = "package p\n\nimport (\n\tcorev1 \"k8s.io/api/core/v1\"\n\tcorev1ac \"k8s.io/client-go/applyconfigurations/core/v1\"\n\t\"sigs.k8s.io/controller-runtime/pkg/source\"\n\t\"example.com/other\"\n)\n\nvar _ = corev1ac.ConfigMap\nvar _ = source.Kind\nvar _ = other.X\n\n"
	runUseCases(t, head, []useCase{
		{"Apply of an apply configuration", "func f(c C) {\n\tc.Apply(ctx, corev1ac.ConfigMap(\"a\", \"ns\"), nil)\n}",
			[]string{":15: Apply of a corev1ac.ConfigMap (k8s.io/client-go/applyconfigurations/core/v1)"}},
		{"Apply of its setters' result, through a local", "func f(c C) {\n\tcm := corev1ac.ConfigMap(\"a\", \"ns\").WithData(nil)\n\tc.Status().Apply(ctx, cm.WithLabels(nil))\n}",
			[]string{":16: Apply of a corev1ac.ConfigMap (k8s.io/client-go/applyconfigurations/core/v1)"}},
		{"a typed apply configuration", "func f(c C, cm *corev1ac.ConfigMapApplyConfiguration) { c.Apply(ctx, cm) }",
			[]string{":14: Apply of a corev1ac.ConfigMapApplyConfiguration (k8s.io/client-go/applyconfigurations/core/v1)"}},
		{"WatchesRawSource of source.Kind", "func f(b B, m M) {\n\tb.WatchesRawSource(source.Kind(m.GetCache(), &corev1.ConfigMap{}, nil))\n}",
			[]string{":15: Kind of a corev1.ConfigMap (k8s.io/api/core/v1)"}},
		{"an instantiated source.Kind", "func f(b B, m M) {\n\tb.WatchesRawSource(source.Kind[*corev1.Secret](m.GetCache(), &corev1.Secret{}, nil))\n}",
			[]string{":15: Kind of a corev1.Secret (k8s.io/api/core/v1)"}},

		// may: an apply configuration whose kind init cannot tell
		{"another module's apply configuration", "func f(c C) { c.Apply(ctx, other.ConfigMap()) }",
			[]string{":14: an Apply whose kind init cannot tell, of other.ConfigMap(): it is the result of other.ConfigMap, of example.com/other, which init does not resolve"}},
	})
}

// shopGroupVersion is kubebuilder's groupversion_info.go of group
// shop.example.com, version v1 (its scheme builder left out).
const shopGroupVersion = "// +groupName=shop.example.com\npackage v1\n\nimport \"k8s.io/apimachinery/pkg/runtime/schema\"\n\nvar (\n\tGroupVersion = schema.GroupVersion{Group: \"shop.example.com\", Version: \"v1\"}\n\n\tSchemeGroupVersion = GroupVersion\n)\n"

// shopApplyConfiguration is what controller-gen's applyconfiguration
// generator writes for the Order kind (+kubebuilder:ac:generate=true), cut
// to what init reads: the constructor, the type and a With setter; and
// otherAC one of another group's kind, generated into the module.
const (
	shopApplyConfiguration = "package v1\n\nimport metav1 \"k8s.io/client-go/applyconfigurations/meta/v1\"\n\ntype OrderApplyConfiguration struct {\n\tmetav1.TypeMetaApplyConfiguration `json:\",inline\"`\n\tStatus *OrderStatusApplyConfiguration `json:\"status,omitempty\"`\n}\n\n// Order constructs a declarative configuration of the Order type for use with\n// apply.\nfunc Order(name, namespace string) *OrderApplyConfiguration {\n\tb := &OrderApplyConfiguration{}\n\tb.WithName(name)\n\tb.WithNamespace(namespace)\n\tb.WithKind(\"Order\")\n\tb.WithAPIVersion(\"shop.example.com/v1\")\n\treturn b\n}\n\nfunc (b *OrderApplyConfiguration) WithStatus(value *OrderStatusApplyConfiguration) *OrderApplyConfiguration {\n\tb.Status = value\n\treturn b\n}\n\ntype OrderStatusApplyConfiguration struct{ Phase *string }\n\nfunc OrderStatus() *OrderStatusApplyConfiguration { return &OrderStatusApplyConfiguration{} }\n"
	otherAC                = "package ext\n\ntype PoolApplyConfiguration struct{}\n\nfunc Pool(name string) *PoolApplyConfiguration {\n\tb := &PoolApplyConfiguration{}\n\tb.WithKind(\"Pool\")\n\tb.WithAPIVersion(\"pools.other.io/v1\")\n\treturn b\n}\n"
)

// TestBuiltinKindUsesOwnApply (issue 80): the project's own generated
// apply configurations (controller-gen's, under api/) and an unstructured
// object whose apiVersion is its GroupVersion.String() or a constant are
// of the project's kinds, through With setters and locals; an Apply whose
// kind init cannot tell may reach a built-in kind, and says so; a fake
// client held in a package variable reaches no server.
func TestBuiltinKindUsesOwnApply(t *testing.T) {
	const head = "package controller\n\nimport (\n\t\"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured\"\n\t\"k8s.io/apimachinery/pkg/runtime/schema\"\n\tcorev1 \"k8s.io/api/core/v1\"\n\t\"sigs.k8s.io/controller-runtime/pkg/client\"\n\t\"sigs.k8s.io/controller-runtime/pkg/client/fake\"\n\n\tshopv1 \"example.com/shop/api/v1\"\n\tshopac \"example.com/shop/api/v1/applyconfiguration/api/v1\"\n\t\"example.com/shop/pkg/ext\"\n)\n\nvar _ = unstructured.Unstructured{}\nvar _ = schema.GroupVersionKind{}\nvar _ = corev1.SchemeGroupVersion\nvar _ = client.Apply\nvar _ = fake.NewClientBuilder\nvar _ = shopv1.GroupVersion\nvar _ = shopac.Order\nvar _ = ext.Pool\n\n"
	const ctrl = "internal/controller/c.go" // its code starts on line 24
	files := func(src string) map[string]string {
		return map[string]string{
			ctrl: head + src,
			"api/v1/applyconfiguration/api/v1/order.go": shopApplyConfiguration,
			"pkg/ext/pool.go": otherAC,
		}
	}
	unstr := "func f(c C) {\n\tu := &unstructured.Unstructured{}\n\tu.%s\n\tc.Status().Apply(ctx, client.ApplyConfigurationFromUnstructured(u))\n}\n"
	runModuleCases(t, []moduleCase{
		{"the constructor and its With setters (the newcomer's summarize)", files("func f(c C) {\n\tac := shopac.Order(\"a\", \"ns\").\n\t\tWithStatus(shopac.OrderStatus())\n\tc.Status().Apply(ctx, ac)\n\tc.Apply(ctx, shopac.Order(\"b\", \"ns\"))\n}\n"), nil},
		{"a typed configuration", files("func f(c C, ac *shopac.OrderApplyConfiguration) { c.Apply(ctx, ac.WithStatus(nil)) }\n"), nil},
		{"unstructured, GroupVersion.String() (the newcomer's phase)", files(fmt.Sprintf(unstr, "SetAPIVersion(shopv1.GroupVersion.String())")), nil},
		{"unstructured, SchemeGroupVersion.WithKind", files(fmt.Sprintf(unstr, "SetGroupVersionKind(shopv1.SchemeGroupVersion.WithKind(\"Order\"))")), nil},
		{"unstructured, a constant apiVersion, through a local", files("const apiVersion = \"shop.example.com/v1\"\n\nfunc f(c C) {\n\tu := &unstructured.Unstructured{}\n\tu.SetAPIVersion(apiVersion)\n\tac := client.ApplyConfigurationFromUnstructured(u)\n\tc.Apply(ctx, ac)\n}\n"), nil},
		{"unstructured, a GVK of the group's constant", files("const group = \"shop.example.com\"\n\nfunc f(c C) {\n\tu := &unstructured.Unstructured{}\n\tu.SetGroupVersionKind(schema.GroupVersionKind{Group: group, Version: \"v1\", Kind: \"Order\"})\n\tc.Apply(ctx, client.ApplyConfigurationFromUnstructured(u))\n}\n"), nil},
		{"a fake client in a package variable", files("var k8sClient = fake.NewClientBuilder().Build()\n\nvar cl client.Client\n\nfunc f() {\n\tk8sClient.Create(ctx, &corev1.Secret{})\n\tcl = fake.NewClientBuilder().WithObjects().Build()\n\tcl.Status().Update(ctx, &corev1.Pod{})\n}\n"), nil},

		// may: init cannot tell, or the kind is no kind of the project's
		{"unstructured of the core group", files(fmt.Sprintf(unstr, "SetAPIVersion(\"v1\")")),
			[]string{ctrl + ":27: an Apply whose kind init cannot tell, of client.ApplyConfigurationFromUnstructured(u): it is an unstructured.Unstructured of the core group (the project's groups: shop.example.com)"}},
		{"unstructured of a parameter's GroupVersion", files("func f(c C, gv schema.GroupVersion) {\n\tu := &unstructured.Unstructured{}\n\tu.SetAPIVersion(gv.String())\n\tc.Apply(ctx, client.ApplyConfigurationFromUnstructured(u))\n}\n"),
			[]string{ctrl + ":27: an Apply whose kind init cannot tell, of client.ApplyConfigurationFromUnstructured(u): it is an unstructured.Unstructured whose group is of no literal, constant or GroupVersion of the module (the project's groups: shop.example.com)"}},
		{"unstructured of another group", files(fmt.Sprintf(unstr, "SetAPIVersion(\"apps/v1\")")),
			[]string{ctrl + ":27: an Apply whose kind init cannot tell, of client.ApplyConfigurationFromUnstructured(u): it is an unstructured.Unstructured of group apps (the project's groups: shop.example.com)"}},
		{"unstructured another function builds", files("func f(c C) { c.Apply(ctx, client.ApplyConfigurationFromUnstructured(build())) }\n\nfunc build() *unstructured.Unstructured { return nil }\n"),
			[]string{ctrl + ":24: an Apply whose kind init cannot tell, of client.ApplyConfigurationFromUnstructured(build()): it is an unstructured.Unstructured with no SetAPIVersion or SetGroupVersionKind of it in the function (the project's groups: shop.example.com)"}},
		{"another group's configuration generated in the module", files("func f(c C) { c.Apply(ctx, ext.Pool(\"a\")) }\n"),
			[]string{ctrl + ":24: an Apply whose kind init cannot tell, of ext.Pool(\"a\"): its type, PoolApplyConfiguration, is the apply configuration of pools.other.io/v1, no group of the project's (shop.example.com)"}},
		{"a configuration that is no kind's", files("func f(c C) { c.Apply(ctx, shopac.OrderStatus()) }\n"),
			[]string{ctrl + ":24: an Apply whose kind init cannot tell, of shopac.OrderStatus(): its type, OrderStatusApplyConfiguration, is no kind of the project's CRDs (no +kubebuilder:object:root=true)"}},
		{"a package variable a real client is assigned too", files("var k8sClient = fake.NewClientBuilder().Build()\n\nfunc f(real client.Client) {\n\tk8sClient = real\n\tk8sClient.Create(ctx, &corev1.Secret{})\n}\n"),
			[]string{ctrl + ":28: Create of a corev1.Secret (k8s.io/api/core/v1)"}},
	})
}

// TestInitSuiteWhereApplies (issue 80): init on kubebuilder v4.15's
// CRD-only project (v4.15-crd-only, whose suite it moves onto testenv)
// with server-side applies: the project's own generated apply
// configuration and an unstructured one of its GroupVersion move the
// suite as before; an Apply whose kind init cannot tell keeps it on
// envtest, and init's plan names its line.
func TestInitSuiteWhereApplies(t *testing.T) {
	const suite = "internal/controller/suite_test.go"
	const head = "package controller\n\nimport (\n\t\"context\"\n\n\t\"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured\"\n\t\"sigs.k8s.io/controller-runtime/pkg/client\"\n\n\tshopv1 \"example.com/shop/api/v1\"\n\tshopac \"example.com/shop/api/v1/applyconfiguration/api/v1\"\n)\n\n"
	const own = "func apply(ctx context.Context, c client.Client) error {\n\tu := &unstructured.Unstructured{}\n\tu.SetAPIVersion(shopv1.GroupVersion.String())\n\tu.SetKind(\"Order\")\n\tif err := c.Status().Apply(ctx, client.ApplyConfigurationFromUnstructured(u)); err != nil {\n\t\treturn err\n\t}\n\treturn c.Status().Apply(ctx, shopac.Order(\"a\", \"ns\").WithStatus(nil))\n}\n"
	cases := []struct {
		name, src string
		keep      string // what the note says where the suite stays; "" where it moves
	}{
		{"the project's own", own, ""},
		{"one init cannot tell", own + "\nfunc configMap(ctx context.Context, c client.Client, gv string) error {\n\tu := &unstructured.Unstructured{}\n\tu.SetAPIVersion(gv)\n\tu.SetKind(\"ConfigMap\")\n\treturn c.Apply(ctx, client.ApplyConfigurationFromUnstructured(u))\n}\n",
			"statuspatch-gen init: " + suite + " stays on envtest, as the code make test compiles may use built-in kinds (init cannot tell these objects' kinds), which testenv's in-process server does not serve: internal/controller/apply.go:27: an Apply whose kind init cannot tell, of client.ApplyConfigurationFromUnstructured(u): it is an unstructured.Unstructured whose group is of no literal, constant or GroupVersion of the module (the project's groups: shop.example.com);"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			copyTree(t, filepath.Join("testdata", "init", "v4.15-crd-only", "before"), dir, nil)
			writeFile(t, filepath.Join(dir, "api", "v1", "groupversion_info.go"), shopGroupVersion)
			writeFile(t, filepath.Join(dir, "api", "v1", "applyconfiguration", "api", "v1", "order.go"), shopApplyConfiguration)
			writeFile(t, filepath.Join(dir, "internal", "controller", "apply.go"), head+c.src)
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
