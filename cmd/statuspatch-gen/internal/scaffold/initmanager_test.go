package scaffold

import (
	"strings"
	"testing"
)

// wireForManager's shapes: kubebuilder's SetupWithManager gets ForManager
// with Named's controller name as the field owner, once (a second run
// changes nothing); without Named, the kind in lower case; what it cannot
// wire it says, and leaves.
func TestWireForManager(t *testing.T) {
	const head = "package controller\n\nimport (\n\tctrl \"sigs.k8s.io/controller-runtime\"\n\tcr \"sigs.k8s.io/controller-runtime/pkg/client\"\n)\n\n"
	for _, c := range []struct {
		name, src, want, why string
	}{
		{"kubebuilder's, named", head + "type GadgetReconciler struct {\n\tcr.Client\n}\n\nfunc (r *GadgetReconciler) SetupWithManager(mgr ctrl.Manager) error {\n\treturn ctrl.NewControllerManagedBy(mgr).Named(\"gadget-ctl\").Complete(r)\n}\n",
			`r.Client = patcher.ForManager(mgr, patcher.WithFieldOwner("gadget-ctl"))`, ""},
		{"unnamed, a named Client field", head + "type GadgetReconciler struct {\n\tClient cr.Client\n}\n\nfunc (g *GadgetReconciler) SetupWithManager(m ctrl.Manager) error {\n\treturn ctrl.NewControllerManagedBy(m).Complete(g)\n}\n",
			`g.Client = patcher.ForManager(m, patcher.WithFieldOwner("gadget"))`, ""},
		{"no Client field", head + "type GadgetReconciler struct {\n\tC cr.Client\n}\n\nfunc (r *GadgetReconciler) SetupWithManager(mgr ctrl.Manager) error {\n\treturn nil\n}\n",
			"", "GadgetReconciler has no Client field of type client.Client"},
		{"r.Client = mgr.GetClient() becomes it", head + "type GadgetReconciler struct {\n\tClient cr.Client\n}\n\nfunc (r *GadgetReconciler) SetupWithManager(mgr ctrl.Manager) error {\n\tr.Client = mgr.GetClient()\n\treturn ctrl.NewControllerManagedBy(mgr).Complete(r)\n}\n",
			`r.Client = patcher.ForManager(mgr, patcher.WithFieldOwner("gadget"))`, ""},
		{"r.Client set otherwise", head + "type GadgetReconciler struct {\n\tClient cr.Client\n}\n\nfunc (r *GadgetReconciler) SetupWithManager(mgr ctrl.Manager) error {\n\tr.Client = cr.WithFieldOwner(mgr.GetClient(), \"x\")\n\treturn nil\n}\n",
			"", `SetupWithManager sets r.Client to cr.WithFieldOwner(mgr.GetClient(), "x") already`},
		{"no SetupWithManager", head + "type GadgetReconciler struct {\n\tcr.Client\n}\n", "", ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			got, why, err := wireForManager("gadget_controller.go", c.src, "Gadget")
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
			again, why, err := wireForManager("gadget_controller.go", got, "Gadget")
			if again != got || why != "" || err != nil {
				t.Errorf("a second run changed it (%q, %v):\n%s", why, err, again)
			}
		})
	}
}
