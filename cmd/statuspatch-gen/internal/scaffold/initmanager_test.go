package scaffold

import (
	"go/parser"
	"go/token"
	"os"
	"os/exec"
	"path/filepath"
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
			"", "GadgetReconciler's Client is promoted through an embedded pointer, which may be nil when SetupWithManager runs: set it (r.Base.Client) after the pointer is set, by hand"},
		{"a Base without the client", head + "type Base struct {\n\tC cr.Client\n}\n\ntype GadgetReconciler struct {\n\tBase\n}\n\nfunc (r *GadgetReconciler) SetupWithManager(mgr ctrl.Manager) error {\n\treturn nil\n}\n",
			"", "GadgetReconciler has no Client field of type client.Client, nor embeds by value a struct of its package that has one"},
		{"r.Client = mgr.GetClient() becomes it", head + "type GadgetReconciler struct {\n\tClient cr.Client\n}\n\nfunc (r *GadgetReconciler) SetupWithManager(mgr ctrl.Manager) error {\n\tr.Client = mgr.GetClient()\n\treturn ctrl.NewControllerManagedBy(mgr).Complete(r)\n}\n",
			`r.Client = patcher.ForManager(mgr, patcher.WithFieldOwner("gadget"))`, ""},
		{"r.Client set otherwise", head + "type GadgetReconciler struct {\n\tClient cr.Client\n}\n\nfunc (r *GadgetReconciler) SetupWithManager(mgr ctrl.Manager) error {\n\tr.Client = cr.WithFieldOwner(mgr.GetClient(), \"x\")\n\treturn nil\n}\n",
			"", `SetupWithManager sets r.Client to cr.WithFieldOwner(mgr.GetClient(), "x") already (gadget_controller.go:13)`},
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

// wireSetup finds where SetupWithManager really sets the client: a Base
// literal's Client (r.Base = Base{Client: mgr.GetClient()}) becomes
// ForManager in place; a literal that leaves it out gets the line after
// it; an ambiguous promoted Client is wired through its path and said,
// first in the method, where the reconciler's builders decide whether it
// may replace their client (callerEdits); a set under a condition is wired
// in place and marked guarded (they decide too); a top set before it that
// init cannot wire is said with its line.
func TestWireForManagerSets(t *testing.T) {
	const head = "package controller\n\nimport (\n\tctrl \"sigs.k8s.io/controller-runtime\"\n\t\"sigs.k8s.io/controller-runtime/pkg/client\"\n)\n\n" +
		"type Base struct {\n\tclient.Client\n\tName string\n}\n\ntype Other struct {\n\tClient client.Client\n}\n\n"
	const fm = `patcher.ForManager(mgr, patcher.WithFieldOwner("gadget"))`
	for _, c := range []struct {
		name, fields, body string
		want               []string
		why, note          string
		guarded, first     bool
		extra              string // more declarations of the file
	}{
		{name: "a Base literal with the client", fields: "Base",
			body: "r.Base = Base{Client: mgr.GetClient(), Name: \"x\"}",
			want: []string{"r.Base = Base{Client: " + fm + `, Name: "x"}`}},
		{name: "a reconciler literal with the client", fields: "Client client.Client",
			body: "*r = GadgetReconciler{Client: mgr.GetClient()}",
			want: []string{"*r = GadgetReconciler{Client: " + fm + "}"}},
		{name: "a Base literal without the client", fields: "Base",
			body: "r.Base = Base{Name: \"x\"}",
			want: []string{"r.Base = Base{Name: \"x\"}\n\t// The manager's client", "r.Client = " + fm}},
		{name: "a Base set otherwise", fields: "Base",
			body: "r.Base = newBase(mgr)",
			why:  "SetupWithManager sets r.Client to newBase(mgr) already (gadget_controller.go:22)"},
		{name: "an ambiguous Client", fields: "Base\n\tOther",
			want: []string{"r.Base.Client = " + fm}, first: true,
			note: "gadget_controller.go:22: GadgetReconciler's field Client is ambiguous (Base.Client and Other.Client, at the same depth): init wired r.Base.Client"},
		{name: "a set under a condition", fields: "client.Client",
			body: "if r.Client == nil {\n\t\tr.Client = mgr.GetClient()\n\t}",
			want: []string{"if r.Client == nil {\n\t\tr.Client = " + fm}, guarded: true},
		{name: "a set under a condition after one init cannot wire", fields: "client.Client",
			body: "r.Client = client.WithFieldOwner(mgr.GetClient(), \"me\")\n\tif r.Client == nil {\n\t\tr.Client = mgr.GetClient()\n\t}",
			want: []string{"if r.Client == nil {\n\t\tr.Client = " + fm},
			note: "gadget_controller.go:22: r.Client is client.WithFieldOwner(mgr.GetClient(), \"me\") unless the statement at gadget_controller.go:23 sets it"},
		{name: "a method of the reconciler that sets the manager's client", fields: "client.Client",
			body:  "r.init(mgr)",
			extra: "func (r *GadgetReconciler) init(m ctrl.Manager) {\n\tr.Client = m.GetClient() // the manager's\n}\n",
			want:  []string{"r.init(mgr)\n\t// The manager's client", "r.Client = " + fm}},
		{name: "a method of the reconciler that sets a client of its own", fields: "client.Client",
			body:  "r.init(mgr)",
			extra: "func (r *GadgetReconciler) init(m ctrl.Manager) {\n\tr.Client = client.WithFieldOwner(m.GetClient(), \"me\")\n}\n",
			why:   "SetupWithManager sets r.Client to r.init(mgr) already (gadget_controller.go:22)"},
		{name: "a set under a condition to something else", fields: "client.Client",
			body: "if r.Client == nil {\n\t\tr.Client = client.WithFieldOwner(mgr.GetClient(), \"me\")\n\t}",
			why:  "SetupWithManager sets r.Client to client.WithFieldOwner(mgr.GetClient(), \"me\") under a condition (gadget_controller.go:23)"},
	} {
		t.Run(c.name, func(t *testing.T) {
			src := head + "type GadgetReconciler struct {\n\t" + c.fields + "\n}\n\nfunc (r *GadgetReconciler) SetupWithManager(mgr ctrl.Manager) error {\n\t" +
				c.body + "\n\treturn ctrl.NewControllerManagedBy(mgr).Complete(r)\n}\n\nfunc newBase(mgr ctrl.Manager) Base { return Base{} }\n" + c.extra
			w, err := wireSetup("gadget_controller.go", src, "Gadget", nil)
			if err != nil || !strings.HasPrefix(w.why, c.why) || (c.why == "") != (w.why == "") {
				t.Fatalf("why %q, err %v; want why %q", w.why, err, c.why)
			}
			for _, want := range c.want {
				if !strings.Contains(w.out, want) || strings.Contains(w.out, "GetClient()\n") {
					t.Errorf("want %s:\n%s", want, w.out)
				}
			}
			if c.why != "" && w.out != src {
				t.Errorf("changed, and said it is not wired:\n%s", w.out)
			}
			if got := strings.Join(w.notes, "\n"); c.note == "" && got != "" || !strings.Contains(got, c.note) {
				t.Errorf("notes\n%s\nwant\n%s", got, c.note)
			}
			if (w.guarded != nil && !w.guarded.first) != c.guarded || (w.guarded != nil && w.guarded.first) != c.first {
				t.Errorf("guarded %+v, want guarded %v, first %v", w.guarded, c.guarded, c.first)
			}
		})
	}
}

// TestInitWiresEveryReconciler: reviewer R's repros in one project, which
// go build compiles after init: a Base literal in SetupWithManager
// (Gadget) is wired in place, not overwritten after the line; a second
// kind's reconciler in the same file (Sprocket, beside Gizmo) is wired
// too; a set under if r.Client == nil (Gizmo) is wired, and so is
// cmd/main.go's Client: mgr.GetClient(), which made the condition false,
// and so is Latch's latch.Client = mgr.GetClient() after its literal
// (reviewer R6's initE2); one built with a client of its own keeps it, its
// SetupWithManager is left as it is, and the client is said with
// cmd/main.go's line and what to write by hand, under a condition (Lever)
// or not (Knob, whose line would replace main's wrapper: R6's initE1;
// Dial, built three ways: its mgr.GetClient() becomes ForManager in
// main.go, its namespaced client stays, and the literal without one is
// said); a client wired by hand as the note says builds, and stays; an
// ambiguous promoted Client (Cog: Base and Other) is written
// r.Base.Client, which compiles, and said. A second run changes nothing.
func TestInitWiresEveryReconciler(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a module with controller-runtime")
	}
	dir := t.TempDir()
	gomod, err := os.ReadFile(filepath.Join(goldenModule, "go.mod"))
	if err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(dir, "go.mod"), strings.ReplaceAll(string(gomod), "=> ../../../..", "=> "+repoRoot(t)))
	copyTree(t, filepath.Join(goldenModule, "go.sum"), filepath.Join(dir, "go.sum"), nil)
	copyTree(t, filepath.Join(goldenModule, "api", "plain", "v1"), filepath.Join(dir, "api", "v1"), nil)
	writeFile(t, filepath.Join(dir, "Makefile"), "")
	project := "layout:\n- go.kubebuilder.io/v4\nrepo: example.com/goldens\nresources:\n"
	for _, k := range []string{"Gadget", "Gizmo", "Sprocket", "Cog", "Lever", "Latch", "Knob", "Dial"} {
		project += "- api:\n    namespaced: true\n  controller: true\n  group: plain\n  kind: " + k + "\n  path: example.com/goldens/api/v1\n  version: v1\n"
	}
	writeFile(t, filepath.Join(dir, "PROJECT"), project)
	const head = "package controller\n\nimport (\n\t\"context\"\n\n\tctrl \"sigs.k8s.io/controller-runtime\"\n\t\"sigs.k8s.io/controller-runtime/pkg/client\"\n\n\tplainv1 \"example.com/goldens/api/v1\"\n)\n\nvar _ client.Client\n"
	reconciler := func(kind, fields, setup string) string {
		return "\ntype " + kind + "Reconciler struct {\n\t" + fields + "\n}\n\nfunc (r *" + kind + "Reconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {\n\treturn ctrl.Result{}, nil\n}\n\n" +
			"func (r *" + kind + "Reconciler) SetupWithManager(mgr ctrl.Manager) error {\n\t" + setup + "return ctrl.NewControllerManagedBy(mgr).For(&plainv1.Widget{}).Named(\"" + strings.ToLower(kind) + "\").Complete(r)\n}\n"
	}
	ctrl := filepath.Join(dir, "internal", "controller")
	guard := "if r.Client == nil {\n\t\tr.Client = mgr.GetClient()\n\t}\n\t"
	writeFile(t, filepath.Join(ctrl, "base.go"), "package controller\n\nimport (\n\t\"k8s.io/apimachinery/pkg/runtime\"\n\t\"sigs.k8s.io/controller-runtime/pkg/client\"\n)\n\ntype Base struct {\n\tclient.Client\n\tScheme *runtime.Scheme\n}\n\ntype Other struct{ Client client.Client }\n")
	writeFile(t, filepath.Join(ctrl, "gadget_controller.go"), head+reconciler("Gadget", "Base", "r.Base = Base{Client: mgr.GetClient(), Scheme: mgr.GetScheme()}\n\t"))
	writeFile(t, filepath.Join(ctrl, "gizmo_controller.go"), head+reconciler("Gizmo", "client.Client", guard)+reconciler("Sprocket", "client.Client", ""))
	writeFile(t, filepath.Join(ctrl, "cog_controller.go"), head+reconciler("Cog", "Base\n\tOther", ""))
	writeFile(t, filepath.Join(ctrl, "lever_controller.go"), head+reconciler("Lever", "client.Client", guard))
	writeFile(t, filepath.Join(ctrl, "latch_controller.go"), head+reconciler("Latch", "client.Client", guard))
	writeFile(t, filepath.Join(ctrl, "knob_controller.go"), head+reconciler("Knob", "client.Client", ""))
	writeFile(t, filepath.Join(ctrl, "dial_controller.go"), head+reconciler("Dial", "client.Client", ""))
	writeFile(t, filepath.Join(dir, "cmd", "main.go"), `package main

import (
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"example.com/goldens/internal/controller"
)

func main() {
	mgr, err := ctrl.NewManager(ctrl.GetConfigOrDie(), ctrl.Options{})
	if err != nil {
		panic(err)
	}
	latch := &controller.LatchReconciler{}
	latch.Client = mgr.GetClient()
	for _, r := range []interface{ SetupWithManager(ctrl.Manager) error }{
		&controller.GadgetReconciler{},
		&controller.GizmoReconciler{Client: mgr.GetClient()},
		&controller.SprocketReconciler{Client: mgr.GetClient()},
		&controller.CogReconciler{},
		&controller.LeverReconciler{
			Client: client.WithFieldOwner(mgr.GetClient(), "lever"),
		},
		latch,
		&controller.KnobReconciler{Client: client.WithFieldOwner(mgr.GetClient(), "knob")},
		&controller.DialReconciler{Client: mgr.GetClient()},
		&controller.DialReconciler{Client: client.NewNamespacedClient(mgr.GetClient(), "dials")},
		&controller.DialReconciler{},
	} {
		if err := r.SetupWithManager(mgr); err != nil {
			panic(err)
		}
	}
}
`)
	proj, err := readProject(dir)
	if err != nil {
		t.Fatal(err)
	}
	edits, notes, err := managerEdits(dir, proj)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, e := range edits {
		got[e.path] = e.new
	}
	fm := func(kind string) string {
		return `patcher.ForManager(mgr, patcher.WithFieldOwner("` + kind + `"))`
	}
	for file, wants := range map[string][]string{
		"internal/controller/gadget_controller.go": {"r.Base = Base{Client: " + fm("gadget") + ", Scheme: mgr.GetScheme()}"},
		"internal/controller/gizmo_controller.go":  {"if r.Client == nil {\n\t\tr.Client = " + fm("gizmo"), "r.Client = " + fm("sprocket")},
		"internal/controller/cog_controller.go":    {"r.Base.Client = " + fm("cog")},
		"internal/controller/latch_controller.go":  {"if r.Client == nil {\n\t\tr.Client = " + fm("latch")},
		"cmd/main.go": {"&controller.GizmoReconciler{Client: " + fm("gizmo") + "}", "&controller.SprocketReconciler{Client: mgr.GetClient()}", "Client: client.WithFieldOwner(mgr.GetClient(), \"lever\")", "\t\"github.com/statuspatch/statuspatch/patcher\"\n",
			"latch.Client = " + fm("latch") + "\n", "&controller.DialReconciler{Client: " + fm("dial") + "}", "&controller.KnobReconciler{Client: client.WithFieldOwner(mgr.GetClient(), \"knob\")}"},
	} {
		for _, want := range wants {
			if !strings.Contains(got[file], want) {
				t.Errorf("%s: want %s:\n%s", file, want, got[file])
			}
		}
	}
	said := strings.Join(notes, "\n")
	for _, want := range []string{
		"internal/controller/cog_controller.go:23: CogReconciler's field Client is ambiguous (Base.Client and Other.Client, at the same depth): init wired r.Base.Client",
		"cmd/main.go:19: GizmoReconciler is built with patcher.ForManager (was mgr.GetClient()), as its SetupWithManager sets it only under a condition (internal/controller/gizmo_controller.go:24)",
		"cmd/main.go:24: LeverReconciler is built with client.WithFieldOwner(mgr.GetClient(), \"lever\") as its client, not mgr.GetClient() itself: init keeps it, and leaves its SetupWithManager (internal/controller/lever_controller.go:24), which sets the client only under a condition, as it is; to give that client the status patchers' defaults (the manager's API reader for fresh reads and re-bases), set its Client to patcher.WithDefaults(client.WithFieldOwner(mgr.GetClient(), \"lever\"), patcher.WithAPIReader(mgr.GetAPIReader())) here by hand, or leave it",
		"cmd/main.go:17: LatchReconciler is built with patcher.ForManager (was mgr.GetClient()), as its SetupWithManager sets it only under a condition (internal/controller/latch_controller.go:24)",
		"cmd/main.go:28: DialReconciler is built with patcher.ForManager (was mgr.GetClient()), as init leaves its SetupWithManager (internal/controller/dial_controller.go:22) as it is, for the client kept at cmd/main.go:29",
		"cmd/main.go:29: DialReconciler is built with client.NewNamespacedClient(mgr.GetClient(), \"dials\") as its client, not mgr.GetClient() itself: init keeps it",
		"cmd/main.go:30: DialReconciler is built without a client, and init does not set the client in its SetupWithManager (internal/controller/dial_controller.go:22), where it would replace the client kept at cmd/main.go:29: set its Client to " + fm("dial") + " here by hand",
		"cmd/main.go:27: KnobReconciler is built with client.WithFieldOwner(mgr.GetClient(), \"knob\") as its client, not mgr.GetClient() itself: init keeps it, and does not set the client in its SetupWithManager (internal/controller/knob_controller.go:22), where it would replace that client; to give that client the status patchers' defaults (the manager's API reader for fresh reads and re-bases), set its Client to patcher.WithDefaults(client.WithFieldOwner(mgr.GetClient(), \"knob\"), patcher.WithAPIReader(mgr.GetAPIReader())) here by hand, or leave it",
	} {
		if !strings.Contains(said, want) {
			t.Errorf("init does not say\n%s\nit says:\n%s", want, said)
		}
	}
	if strings.Contains(said, "not wired") {
		t.Errorf("init says a reconciler is not wired:\n%s", said)
	}
	for _, kept := range []string{"internal/controller/lever_controller.go", "internal/controller/knob_controller.go", "internal/controller/dial_controller.go"} {
		if _, ok := got[kept]; ok {
			t.Errorf("%s, whose reconciler main builds with a client of its own, is changed:\n%s", kept, got[kept])
		}
	}
	if err := applyEdits(dir, edits); err != nil {
		t.Fatal(err)
	}
	// Knob wired by hand as init's note says: it builds, and a second run
	// keeps it
	mainGo := filepath.Join(dir, "cmd", "main.go")
	src, err := os.ReadFile(mainGo)
	if err != nil {
		t.Fatal(err)
	}
	knob := `client.WithFieldOwner(mgr.GetClient(), "knob")`
	writeFile(t, mainGo, strings.Replace(string(src), "Client: "+knob, "Client: patcher.WithDefaults("+knob+", patcher.WithAPIReader(mgr.GetAPIReader()))", 1))
	build := exec.Command("go", "build", "./...")
	build.Dir = dir
	build.Env = append(os.Environ(), "GOWORK=off", "GOFLAGS=-mod=mod", "GOSUMDB=off")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build after init: %v\n%s", err, out)
	}
	if again, _, err := managerEdits(dir, proj); err != nil || len(again) > 0 {
		t.Errorf("a second run changes %d files (%v)", len(again), err)
	}
}

// builtSites' table: where main.go sets the reconciler's client, and what
// it is; the manager's client itself is the only value init rewrites, at
// the literal's field or at the assignment after the literal.
func TestBuiltSites(t *testing.T) {
	const head = "package main\n\nimport (\n\tctrl \"sigs.k8s.io/controller-runtime\"\n\t\"sigs.k8s.io/controller-runtime/pkg/client\"\n\n\t\"example.com/m/internal/controller\"\n)\n\nfunc main() {\n\tm, _ := ctrl.NewManager(nil, ctrl.Options{})\n\t"
	for _, c := range []struct {
		name, body string
		how        builtClient
		val, at    string
		via        []string
	}{
		{name: "the literal's field", body: "_ = &controller.GadgetReconciler{Client: m.GetClient()}", how: builtManager, val: "m.GetClient()", at: "main.go:12"},
		{name: "an assignment after the literal", body: "r := &controller.GadgetReconciler{}\n\tr.Client = m.GetClient()", how: builtManager, val: "m.GetClient()", at: "main.go:13"},
		{name: "a var and an assignment under a condition", body: "var r = controller.GadgetReconciler{}\n\tif m != nil {\n\t\tr.Client = m.GetClient()\n\t}", how: builtManager, val: "m.GetClient()", at: "main.go:14"},
		{name: "through a Base", body: "r := &controller.GadgetReconciler{}\n\tr.Base.Client = client.WithFieldOwner(m.GetClient(), \"x\")", how: builtOwn, val: "client.WithFieldOwner(m.GetClient(), \"x\")", at: "main.go:13", via: []string{"Base"}},
		{name: "a Base literal", body: "_ = controller.GadgetReconciler{Base: controller.Base{Client: m.GetClient()}}", how: builtManager, val: "m.GetClient()", at: "main.go:12", via: []string{"Base"}},
		{name: "a wrapper", body: "_ = &controller.GadgetReconciler{\n\t\tClient: client.NewNamespacedClient(m.GetClient(), \"ns\"),\n\t}", how: builtOwn, val: "client.NewNamespacedClient(m.GetClient(), \"ns\")", at: "main.go:13"},
		{name: "a variable", body: "c := m.GetClient()\n\t_ = &controller.GadgetReconciler{Client: c}", how: builtOwn, val: "c", at: "main.go:13"},
		{name: "a literal without keys", body: "_ = &controller.GadgetReconciler{m.GetClient()}", how: builtOwn, val: "controller.GadgetReconciler{…}", at: "main.go:12"},
		{name: "wired already", body: "_ = &controller.GadgetReconciler{Client: patcher.ForManager(m)}", how: builtWired, val: "patcher.ForManager(m)", at: "main.go:12"},
		{name: "a file that does not parse", body: "{{ .Template }}"},
		{name: "no client", body: "r := &controller.GadgetReconciler{}\n\t_ = r", how: builtNone, at: "main.go:12"},
		{name: "another variable's client", body: "r := &controller.GadgetReconciler{}\n\to := &controller.GadgetReconciler{}\n\to.Client = m.GetClient()\n\t_ = r", how: builtNone, at: "main.go:12"},
	} {
		t.Run(c.name, func(t *testing.T) {
			sites := fileSites("main.go", head+c.body+"\n}\n", false, "example.com/m/internal/controller", "GadgetReconciler", c.via)
			if (len(sites) == 0) != (c.at == "") {
				t.Fatalf("%d sites: %+v", len(sites), sites)
			}
			if c.at == "" {
				return
			}
			s := sites[0]
			if s.how != c.how || s.val != c.val || s.at != c.at {
				t.Errorf("got %v %q at %s, want %v %q at %s", s.how, s.val, s.at, c.how, c.val, c.at)
			}
			if s.how == builtManager && s.mgr != "m" {
				t.Errorf("manager %q, want m", s.mgr)
			}
		})
	}
}
