package scaffold

import (
	"go/parser"
	"go/token"
	"strings"
	"testing"
)

// wireForManager's shapes: kubebuilder's SetupWithManager gets ForManager
// with Named's controller name as the field owner, once (a second run
// changes nothing); without Named, the kind in lower case; what it cannot
// wire it says, and leaves.
func TestWireForManager(t *testing.T) {
	const head = "package controller\n\nimport (\n\tctrl \"sigs.k8s.io/controller-runtime\"\n\tcr \"sigs.k8s.io/controller-runtime/pkg/client\"\n)\n\n"
	// base.go of the package, for the cases whose Base is declared there
	baseFile := parseStructs(t, "base.go", "package controller\n\nimport crc \"sigs.k8s.io/controller-runtime/pkg/client\"\n\ntype Shared struct {\n\tcrc.Client\n}\n")
	for _, c := range []struct {
		name, src, want, why string
	}{
		{"kubebuilder's, named", head + "type GadgetReconciler struct {\n\tcr.Client\n}\n\nfunc (r *GadgetReconciler) SetupWithManager(mgr ctrl.Manager) error {\n\treturn ctrl.NewControllerManagedBy(mgr).Named(\"gadget-ctl\").Complete(r)\n}\n",
			`r.Client = patcher.ForManager(mgr, patcher.WithFieldOwner("gadget-ctl"))`, ""},
		{"unnamed, a named Client field", head + "type GadgetReconciler struct {\n\tClient cr.Client\n}\n\nfunc (g *GadgetReconciler) SetupWithManager(m ctrl.Manager) error {\n\treturn ctrl.NewControllerManagedBy(m).Complete(g)\n}\n",
			`g.Client = patcher.ForManager(m, patcher.WithFieldOwner("gadget"))`, ""},
		{"no Client field", head + "type GadgetReconciler struct {\n\tC cr.Client\n}\n\nfunc (r *GadgetReconciler) SetupWithManager(mgr ctrl.Manager) error {\n\treturn nil\n}\n",
			"", "GadgetReconciler has no Client field of type client.Client, nor embeds by value a struct of its package that has one"},
		{"a Base of the file holds the client", head + "type Base struct {\n\tcr.Client\n\tName string\n}\n\ntype GadgetReconciler struct {\n\tBase\n}\n\nfunc (r *GadgetReconciler) SetupWithManager(mgr ctrl.Manager) error {\n\treturn ctrl.NewControllerManagedBy(mgr).Complete(r)\n}\n",
			`r.Client = patcher.ForManager(mgr, patcher.WithFieldOwner("gadget"))`, ""},
		{"two levels, r.Base.Client = mgr.GetClient() becomes it", head + "type Inner struct {\n\tClient cr.Client\n}\n\ntype Base struct {\n\tInner\n}\n\ntype GadgetReconciler struct {\n\tBase\n}\n\nfunc (r *GadgetReconciler) SetupWithManager(mgr ctrl.Manager) error {\n\tr.Base.Client = mgr.GetClient()\n\treturn ctrl.NewControllerManagedBy(mgr).Complete(r)\n}\n",
			`r.Base.Client = patcher.ForManager(mgr, patcher.WithFieldOwner("gadget"))`, ""},
		{"a Base of another file of the package", head + "type GadgetReconciler struct {\n\tShared\n}\n\nfunc (r *GadgetReconciler) SetupWithManager(mgr ctrl.Manager) error {\n\treturn ctrl.NewControllerManagedBy(mgr).Complete(r)\n}\n\nvar _ cr.Client\n",
			`r.Client = patcher.ForManager(mgr, patcher.WithFieldOwner("gadget"))`, ""},
		{"an embedded pointer may be nil", head + "type Base struct {\n\tcr.Client\n}\n\ntype GadgetReconciler struct {\n\t*Base\n}\n\nfunc (r *GadgetReconciler) SetupWithManager(mgr ctrl.Manager) error {\n\treturn nil\n}\n",
			"", "GadgetReconciler has no Client field of type client.Client, nor embeds by value a struct of its package that has one"},
		{"a Base without the client", head + "type Base struct {\n\tC cr.Client\n}\n\ntype GadgetReconciler struct {\n\tBase\n}\n\nfunc (r *GadgetReconciler) SetupWithManager(mgr ctrl.Manager) error {\n\treturn nil\n}\n",
			"", "GadgetReconciler has no Client field of type client.Client, nor embeds by value a struct of its package that has one"},
		{"r.Client = mgr.GetClient() becomes it", head + "type GadgetReconciler struct {\n\tClient cr.Client\n}\n\nfunc (r *GadgetReconciler) SetupWithManager(mgr ctrl.Manager) error {\n\tr.Client = mgr.GetClient()\n\treturn ctrl.NewControllerManagedBy(mgr).Complete(r)\n}\n",
			`r.Client = patcher.ForManager(mgr, patcher.WithFieldOwner("gadget"))`, ""},
		{"r.Client set otherwise", head + "type GadgetReconciler struct {\n\tClient cr.Client\n}\n\nfunc (r *GadgetReconciler) SetupWithManager(mgr ctrl.Manager) error {\n\tr.Client = cr.WithFieldOwner(mgr.GetClient(), \"x\")\n\treturn nil\n}\n",
			"", `SetupWithManager sets r.Client to cr.WithFieldOwner(mgr.GetClient(), "x") already`},
		{"no SetupWithManager", head + "type GadgetReconciler struct {\n\tcr.Client\n}\n", "", ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			got, why, err := wireForManagerIn("gadget_controller.go", c.src, "Gadget", baseFile)
			if err != nil || why != c.why {
				t.Fatalf("why %q, err %v; want why %q", why, err, c.why)
			}
			if c.want == "" {
				if got != c.src {
					t.Errorf("changed:\n%s", got)
				}
				return
			}
			if !strings.Contains(got, c.want) || !strings.Contains(got, "\t\"github.com/statuspatch/statuspatch/patcher\"\n") || strings.Contains(got, "GetClient") || strings.Count(got, ".Client = ") != 1 {
				t.Errorf("want %s and the import:\n%s", c.want, got)
			}
			again, why, err := wireForManagerIn("gadget_controller.go", got, "Gadget", baseFile)
			if again != got || why != "" || err != nil {
				t.Errorf("a second run changed it (%q, %v):\n%s", why, err, again)
			}
		})
	}
}

// parseStructs is the struct types src (a file named name) declares.
func parseStructs(t *testing.T, name, src string) map[string]declaredStruct {
	t.Helper()
	f, err := parser.ParseFile(token.NewFileSet(), name, src, parser.SkipObjectResolution)
	if err != nil {
		t.Fatal(err)
	}
	structs := map[string]declaredStruct{}
	addFileStructs(structs, f, name)
	return structs
}
