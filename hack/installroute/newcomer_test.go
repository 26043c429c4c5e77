package installroute

import (
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/statuspatch/statuspatch/hack/internal/gocmd"
	"github.com/statuspatch/statuspatch/hack/internal/lines"
)

// sampleLines' versions are made up: hack/lines' scan reads this file.
const sampleLines = `v0.41 v0.41.2 v0.60.3 go1.9.4 1.60 floor
v0.42 v0.42.1 v0.61.5 go1.9.6 1.61 install
v0.43 v0.43.0 v0.62.1 go1.9.7 1.62 workspace
v0.40 v0.40.0 -       go1.9.4 -    below
`

func sampleTable(t *testing.T) lines.Table {
	t.Helper()
	tab, err := lines.Parse(strings.NewReader(sampleLines))
	if err != nil {
		t.Fatal(err)
	}
	return tab
}

func TestNewcomerBelowTheFloor(t *testing.T) {
	tab := sampleTable(t)
	below, _ := tab.Role(lines.Below)
	for name, route := range map[string]func(Config, lines.Line) error{"Newcomer": Newcomer, "Adopt": Adopt} {
		err := route(Config{Table: tab, Proxy: &Proxy{}, Out: io.Discard}, below)
		if err == nil || err.Error() != "line v0.40 is below the floor: not supported" {
			t.Errorf("%s(below) = %v", name, err)
		}
	}
}

func TestEnvtestChoice(t *testing.T) {
	tab := sampleTable(t)
	install, _ := tab.Role(lines.Install)
	floor, _ := tab.Role(lines.Floor)
	assets := tab.Assets()
	if assets != "1.61.x" {
		t.Fatalf("Assets = %s", assets)
	}
	ownSetup := []string{"make", "-s", "setup-envtest"}
	ownNote := "its own ENVTEST_K8S_VERSION, 1.61 (the scaffold's Makefile derives it from k8s.io/api v0.61.5)"
	// The release make test-assets builds is the install line's own: it
	// runs with its own derived version, however the release is written,
	// and by default.
	for _, release := range []string{"", "1.61.x", "v1.61.x", "1.61", "1.61.3", "line"} {
		e := envtestChoice(release, assets, install)
		if !slices.Equal(e.setup, ownSetup) || e.want != "1.61" || e.note != ownNote || e.skip != "" {
			t.Errorf("envtestChoice(%q, %s, install) = %+v", release, assets, e)
		}
	}
	// By default another line leaves step 5b out, saying why and how to
	// run it.
	e := envtestChoice("", assets, floor)
	if e.skip == "" || e.setup != nil || e.want != "" {
		t.Errorf("envtestChoice(\"\", %s, floor) = %+v, want step 5b left out", assets, e)
	}
	for _, want := range []string{"its own envtest release, 1.60, is not built here", "make test-assets builds 1.61.x", "hack/compat.sh", "NEWCOMER_ENVTEST_K8S_VERSION=1.61.x runs it here", "=line"} {
		if !strings.Contains(e.skip, want) {
			t.Errorf("envtestChoice(\"\", %s, floor).skip = %q, want it to say %q", assets, e.skip, want)
		}
	}
	// Named, it runs there with that release by make variable; line: its
	// own.
	e = envtestChoice("1.61.x", assets, floor)
	if !slices.Equal(e.setup, []string{"make", "-s", "setup-envtest", "ENVTEST_K8S_VERSION=1.61.x"}) || e.want != "1.61.x" || e.skip != "" ||
		!strings.HasPrefix(e.note, "ENVTEST_K8S_VERSION=1.61.x on make setup-envtest's command line") || !strings.Contains(e.note, "not the line's own 1.60 ") {
		t.Errorf("envtestChoice(1.61.x, %s, floor) = %+v", assets, e)
	}
	if e := envtestChoice("line", assets, floor); e.want != "1.60" || !slices.Equal(e.setup, ownSetup) || e.skip != "" {
		t.Errorf("envtestChoice(line, %s, floor) = %+v", assets, e)
	}
}

func TestPreinstall(t *testing.T) {
	op, src := t.TempDir(), filepath.Join(t.TempDir(), "golangci-lint")
	if err := os.WriteFile(src, []byte(golangciUnwired), 0o755); err != nil {
		t.Fatal(err)
	}
	mk := "X ?= 1\nGOLANGCI_LINT_VERSION ?= v9.8.7\nGOLANGCI_LINT_VERSION ?= v1.1.1\n"
	if got := makefileVar(mk, "GOLANGCI_LINT_VERSION"); got != "v9.8.7" {
		t.Errorf("makefileVar = %q, want the first", got)
	}
	for round := 0; round < 2; round++ { // ln -sf: again over the link
		if err := preinstall(op, mk, "golangci-lint", "GOLANGCI_LINT_VERSION", src); err != nil {
			t.Fatal(err)
		}
	}
	target, err := os.Readlink(filepath.Join(op, "bin", "golangci-lint"))
	if err != nil || target != filepath.Join(op, "bin", "golangci-lint-v9.8.7") {
		t.Errorf("bin/golangci-lint links to %q (%v), want bin/golangci-lint-v9.8.7 by its absolute path", target, err)
	}
	if !executable(target) {
		t.Errorf("%s is not executable", target)
	}
	if err := preinstall(op, mk, "controller-gen", "CONTROLLER_TOOLS_VERSION", src); err == nil || err.Error() != "kubebuilder's Makefile has no CONTROLLER_TOOLS_VERSION" {
		t.Errorf("a Makefile without the variable: %v", err)
	}
	if out, err := exec.Command(target, "run").CombinedOutput(); err == nil || !strings.Contains(string(out), "init did not wire make lint") {
		t.Errorf("the scaffold's own golangci-lint run: %v, want a failure naming init's wiring:\n%s", err, out)
	}
}

// TestTheScaffoldsEdits applies the --ssa set-up to the scaffold's real
// files: hack/installtest's types and kubebuilder's Makefile.
func TestTheScaffoldsEdits(t *testing.T) {
	read := func(name string) string {
		b, err := os.ReadFile(filepath.Join("..", "..", name))
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	op := "hack/installtest/testdata/operator/"
	types, gv, mk := read(op+"api/v1/widget_types.go"), read(op+"api/v1/groupversion_info.go"), read(kubebuilderMakefile)
	for _, v := range []string{"CONTROLLER_TOOLS_VERSION", "GOLANGCI_LINT_VERSION"} {
		if makefileVar(mk, v) == "" {
			t.Errorf("kubebuilder's Makefile has no %s", v)
		}
	}
	summary := addSummary(types)
	if want := "\tConditions []metav1.Condition `json:\"conditions,omitempty\"`\n\t// Summary says how many parts the widget has.\n\t// +optional\n\tSummary string `json:\"summary,omitempty\"`\n"; !strings.Contains(summary, want) {
		t.Errorf("addSummary: no Summary after Conditions:\n%s", summary)
	}
	if want := "\tSummary string `json:\"summary,omitempty\"`\n\t// Phase is Ready, or Failed.\n\t// +optional\n\tPhase string `json:\"phase,omitempty\"`\n"; !strings.Contains(summary, want) {
		t.Errorf("addSummary: no Phase after Summary:\n%s", summary)
	}
	if ssaSetUp(gv, summary, mk) {
		t.Error("ssaSetUp before the edits: true")
	}
	ssaTypes, ssaGV, ssaMk := genclient(summary), acGenerate(gv), manifestsApplyConfiguration(mk)
	if !ssaSetUp(ssaGV, ssaTypes, ssaMk) {
		t.Errorf("ssaSetUp after the edits: false\n%s\n%s", ssaGV, ssaTypes)
	}
	for _, w := range []string{"// Widget is the install test's one kind.\n// +genclient\n", "// +kubebuilder:subresource:status\n// +kubebuilder:resource:path=widgets\n"} {
		if !strings.Contains(ssaTypes, w) {
			t.Errorf("genclient: no %q", w)
		}
	}
	if !strings.Contains(ssaGV, "// +kubebuilder:object:generate=true\n// +kubebuilder:ac:generate=true\n") {
		t.Errorf("acGenerate:\n%s", ssaGV)
	}
	for _, w := range []string{
		"\nmanifests: controller-gen ## Generate WebhookConfiguration, ClusterRole and CustomResourceDefinition objects and ApplyConfiguration types.\n",
		"\n\t\"$(CONTROLLER_GEN)\" rbac:roleName=manager-role crd webhook applyconfiguration:headerFile=\"hack/boilerplate.go.txt\" paths=\"./...\"",
	} {
		if !strings.Contains(ssaMk, w) {
			t.Errorf("manifestsApplyConfiguration: no %q", w)
		}
	}
	// Nothing else moves.
	if got := len(strings.Split(ssaMk, "\n")); got != len(strings.Split(mk, "\n")) {
		t.Errorf("the Makefile has %d lines after the edit, %d before", got, len(strings.Split(mk, "\n")))
	}
}

// TestTheEmbeddedScaffold: the reconciler's handwritten writes are the
// five of widget_controller.go the fix step counts, and each summary file
// writes once.
func TestTheEmbeddedScaffold(t *testing.T) {
	count := func(name string) int {
		b, err := newcomerFiles.ReadFile("testdata/newcomer/" + name)
		if err != nil {
			t.Fatal(err)
		}
		return strings.Count(handwrittenLeft(string(b)), "\n")
	}
	if n := count("scaffold/internal/controller/widget_controller.go"); n != 5 {
		t.Errorf("the reconciler writes status by hand %d times, want 5 (the deferred Update among them)", n)
	}
	for _, f := range []string{"widget_summary_apply.go", "widget_summary_patch.go", "widget_phase_apply.go", "widget_phase_patch.go", "status.go"} {
		if n := count(f); n != 1 {
			t.Errorf("%s writes status by hand %d times, want 1", f, n)
		}
	}
	if _, err := newcomerFiles.ReadFile("testdata/newcomer/scaffold/PROJECT"); err != nil {
		t.Error(err)
	}
}

func TestSums(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("a", "1")
	write("sub/b", "2")
	write("bin/tool", "x")
	before, err := sums(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(before) != 2 {
		t.Errorf("sums = %v, want a and sub/b (bin/ left out)", before)
	}
	write("bin/tool", "y")
	write("a", "1")
	after, _ := sums(dir)
	if d := sumsDiff(before, after); d != "" {
		t.Errorf("nothing changed but bin/: %s", d)
	}
	write("a", "3")
	write("c", "4")
	if err := os.Remove(filepath.Join(dir, "sub/b")); err != nil {
		t.Fatal(err)
	}
	after, _ = sums(dir)
	if got, want := sumsDiff(before, after), "added c, changed a, removed sub/b"; got != want {
		t.Errorf("sumsDiff = %q, want %q", got, want)
	}
}

func TestFixBlock(t *testing.T) {
	md := "x\n   <!-- fix:begin -->\n   ```sh\n   make statuspatch-lint\n   bin/statuspatch-lint -fix ./...\n\n   go mod tidy\n   ```\n   <!-- fix:end -->\nbin/other\n"
	got, err := fixBlock(md)
	if want := []string{"make statuspatch-lint", "bin/statuspatch-lint -fix ./...", "go mod tidy"}; err != nil || !slices.Equal(got, want) {
		t.Errorf("fixBlock = %q, %v; want %q", got, err, want)
	}
	if _, err := fixBlock("none"); err == nil || !strings.Contains(err.Error(), "has no fix block") {
		t.Errorf("no fix block: %v", err)
	}
	if _, err := fixBlock(strings.Replace(md, "-fix", "-fox", 1)); err == nil || !strings.Contains(err.Error(), "no bin/statuspatch-lint -fix line") {
		t.Errorf("no -fix line: %v", err)
	}
}

func TestGenInstallLine(t *testing.T) {
	readme := strings.Replace(sampleReadme, "example.com/y@", "example.com/cmd/statuspatch-gen@", 1)
	if got, want := genInstallLine(readme), "GOBIN=$PWD/bin go install example.com/cmd/statuspatch-gen@v0.1.0"; got != want {
		t.Errorf("genInstallLine = %q, want %q", got, want)
	}
	if got := genInstallLine(sampleReadme); got != "" {
		t.Errorf("genInstallLine without statuspatch-gen = %q", got)
	}
}

func TestGoModChecks(t *testing.T) {
	mod := "require (\n\tgithub.com/statuspatch/statuspatch v0.1.0\n\tgithub.com/statuspatch/statuspatch/testenv v0.1.0 // indirect\n)\n"
	if !requiresDirectly(mod, "github.com/statuspatch/statuspatch", "v0.1.0") {
		t.Error("a direct requirement: not found")
	}
	if requiresDirectly(mod, "github.com/statuspatch/statuspatch/testenv", "v0.1.0") {
		t.Error("an indirect requirement counts as direct")
	}
	if requiresDirectly(mod, "github.com/statuspatch/statuspatch", "v0.1.1") {
		t.Error("another version counts")
	}
}

func TestMovedOntoPatchers(t *testing.T) {
	src := strings.Repeat("p := patchers.NewWidgetStatusPatcher(r.Client, w)\nreturn p.Retry(ctx, func(w *widgetsv1.Widget) error {\n", 2) +
		"return r.markObserved(ctx, p)\nreturn p.Flush(ctx)\n" +
		"p := patchers.FetchWidgetStatusPatcher(ctx, r.Client, key)\nreturn p.Flush(ctx)\n" +
		"p := patchers.NewWidgetStatusPatcher(r.Client, &w, patcher.WithWriteMode(patcher.WriteApply), patcher.WithFieldOwner(\"widget-summary\"))\n_ = p.Patcher().ApplyStatus(ac.Status)\nreturn p.Flush(ctx)\n" +
		"p := patchers.NewWidgetStatusPatcher(r.Client, w)\nreturn status.MarkFailed(ctx, p, w, \"NegativeSize\")\nreturn p.Flush(ctx)\n" +
		"p := patchers.NewWidgetStatusPatcher(r.Client, &widget, patcher.WithWriteMode(patcher.WriteApply), patcher.WithFieldOwner(\"widget-phase\"))\n_ = p.Patcher().ApplyStatus(u.Object[\"status\"])\nreturn p.Flush(ctx)\n"
	if !movedOntoPatchers(src, 7) {
		t.Error("the seven writes moved: false")
	}
	if movedOntoPatchers(src, 6) {
		t.Error("seven Flush calls where six writes are: true")
	}
	if handwrittenLeft(src) != "" {
		t.Errorf("handwrittenLeft = %q", handwrittenLeft(src))
	}
	left := src + "return r.Client.Status().Update(ctx, w)\n"
	if got := handwrittenLeft(left); got != "18:return r.Client.Status().Update(ctx, w)\n" {
		t.Errorf("handwrittenLeft = %q", got)
	}
}

// TestUserGo: internal/gocmd's commands run with the user's go (the
// first in the user's PATH), GOWORK unset for the workspace's and off
// otherwise, in the command's folder.
func TestUserGo(t *testing.T) {
	bin, dir := t.TempDir(), t.TempDir()
	script := "#!/bin/sh\necho \"go $* GOWORK=[$GOWORK] in $(pwd)\"\n"
	if err := os.WriteFile(filepath.Join(bin, "go"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	r := &runner{env: []string{"PATH=" + bin + ":/usr/bin:/bin", "GOWORK=off"}, stdout: io.Discard, stderr: io.Discard}
	g := r.userGo()
	out, err := g.Output(gocmd.Cmd{Dir: dir, Workspace: true, Verb: []string{"list"}, Args: []string{"-m", "all"}})
	if want := "go list -m all GOWORK=[] in " + dir + "\n"; err != nil || out != want {
		t.Errorf("the workspace's: %q, %v; want %q", out, err, want)
	}
	out, err = g.Combined(gocmd.Cmd{Dir: dir, Verb: []string{"mod", "tidy"}, Modfile: filepath.Join(dir, "go.mod")})
	if want := "go mod tidy -modfile=go.mod GOWORK=[off] in " + dir + "\n"; err != nil || out != want {
		t.Errorf("the module's: %q, %v; want %q", out, err, want)
	}
}
