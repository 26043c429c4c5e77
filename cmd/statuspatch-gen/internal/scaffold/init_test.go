package scaffold

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// initArgs are the flags every test passes: a fixed version (a test
// binary's own is "(devel)") and no go mod tidy (no module proxy here;
// hack/newcomer-test.sh runs it for real).
var initArgs = []string{"-tidy=false", "-version", "v0.1.0"}

// TestInitRefuses: anything but a kubebuilder v4 project is refused with
// "path: what is wrong", and nothing is written.
func TestInitRefuses(t *testing.T) {
	kb := filepath.Join("testdata", "init", "v4.15", "before")
	makefile, err := os.ReadFile(filepath.Join(kb, "Makefile"))
	if err != nil {
		t.Fatal(err)
	}
	project, err := os.ReadFile(filepath.Join(kb, "PROJECT"))
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name  string
		files map[string]string
		want  string // a regexp; DIR is the project directory
	}{
		{"empty directory", nil, `^DIR/go.mod: no such file: statuspatch-gen init runs in a Go module's root`},
		{"no PROJECT, no API folder", map[string]string{"go.mod": "module example.com/x\n", "Makefile": string(makefile)},
			`^DIR: no PROJECT file, and none of api, apis, pkg/apis, pkg/api is a folder there: pass -api .*docs/kubebuilder.md#by-hand`},
		{"no PROJECT, no kind", map[string]string{"go.mod": "module example.com/x\n", "Makefile": string(makefile), "api/v1/doc.go": "package v1\n"},
			`^DIR: no PROJECT file, and no kind .* in api: pass -api`},
		{"v2 layout", map[string]string{"PROJECT": "layout:\n- go.kubebuilder.io/v2\n", "Makefile": string(makefile)},
			`^DIR/PROJECT:1: layout is \["go.kubebuilder.io/v2"\], not go.kubebuilder.io/v4 or go.kubebuilder.io/v3: .*docs/kubebuilder.md#by-hand`},
		{"not YAML", map[string]string{"PROJECT": "layout: [\n", "Makefile": string(makefile)}, `^DIR/PROJECT: not a kubebuilder PROJECT file`},
		{"no Makefile", map[string]string{"PROJECT": string(project)}, `^DIR/Makefile: no such file`},
		{"no generate target", map[string]string{"PROJECT": string(project), "Makefile": "all:\n\tgo build ./...\n"},
			`^DIR/Makefile: no generate: target, which make generate-patchers joins: .*docs/kubebuilder.md#by-hand`},
		{"a target of the block defined by hand", map[string]string{"PROJECT": string(project), "Makefile": string(makefile) + "\n.PHONY: lint-status\nlint-status:\n\tgo vet ./...\n"},
			`^DIR/Makefile:\d+: defines lint-status, which statuspatch's Makefile block defines: .*docs/kubebuilder.md#by-hand`},
		{"block pasted by hand", map[string]string{"PROJECT": string(project), "Makefile": string(makefile) + "\nSTATUSPATCH_VERSION ?= v0.1.0\n"},
			`^DIR/Makefile:\d+: statuspatch's Makefile block is pasted here by hand`},
		{"begin marker without end", map[string]string{"PROJECT": string(project), "Makefile": string(makefile) + "\n" + blockBegin + "\n"},
			`^DIR/Makefile:\d+: ".*" without "# statuspatch: end"`},
		{"API types do not parse", map[string]string{"PROJECT": string(project), "Makefile": string(makefile),
			"internal/controller/captain_controller.go": "package controller\n\ntype CaptainReconciler struct{ Client any }\n",
			"api/v1/captain_types.go":                   "package v1\n\ntype Captain struct {\n"},
			`^statuspatch-gen init: DIR/api/v1/captain_types.go:3:\d+: `},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			for name, text := range c.files {
				writeFile(t, filepath.Join(dir, name), text)
			}
			before := readTree(t, dir)
			var out bytes.Buffer
			err := RunInit(append(append([]string{}, initArgs...), dir), &out, &out)
			if err == nil {
				t.Fatalf("init passed:\n%s", out.String())
			}
			re := regexp.MustCompile(strings.ReplaceAll(c.want, "DIR", regexp.QuoteMeta(dir)))
			if !re.MatchString(err.Error()) {
				t.Errorf("error %q does not match %q", err, re)
			}
			compareTrees(t, "after the refusal", readTree(t, dir), before)
		})
	}
}

// TestMakefileBlockInDocs: docs/kubebuilder.md shows the block init writes
// (without .golangci.yml), at the version testenv/go.mod requires.
func TestMakefileBlockInDocs(t *testing.T) {
	doc, err := readDoc(t, "kubebuilder.md")
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile("(?s)<!-- makefile:begin -->\n```make\n(.*?)```\n<!-- makefile:end -->").FindSubmatch(doc)
	if m == nil {
		t.Fatal("docs/kubebuilder.md has no makefile:begin ... makefile:end block")
	}
	v := regexp.MustCompile(`(?m)^STATUSPATCH_VERSION \?= (\S+)$`).FindSubmatch(m[1])
	if v == nil {
		t.Fatal("docs/kubebuilder.md's block has no STATUSPATCH_VERSION line")
	}
	if want := makefileBlock(string(v[1]), v4Block); string(m[1]) != want {
		t.Errorf("docs/kubebuilder.md's Makefile block is not the one init writes; want:\n%s", want)
	}
}

// TestInitVersion: init pins only a version a module proxy can serve; a
// binary built from a checkout ("(devel)", or a +dirty pseudo-version)
// must be told which, and writes nothing.
func TestInitVersion(t *testing.T) {
	for _, v := range []string{"(devel)", "", "v0.1.1-0.20261123000000-abcdef123456+dirty"} {
		dir := t.TempDir()
		copyTree(t, filepath.Join("testdata", "init", "v4.15", "before"), dir, nil)
		before := readTree(t, dir)
		var out bytes.Buffer
		args := []string{"-tidy=false", "-version", v, dir}
		if v == "" {
			args = []string{"-tidy=false", dir} // a test binary's version: (devel)
		}
		err := RunInit(args, &out, &out)
		if err == nil || !strings.Contains(err.Error(), "pass -version vX.Y.Z") {
			t.Errorf("-version %q: error %v, want one asking for -version", v, err)
		}
		compareTrees(t, "after -version "+v, readTree(t, dir), before)
	}
}

// TestInitGolangciAsPluginTestdata: init's edit of kubebuilder v4.11's and
// v4.15's own .golangci.yml (testdata/init-golangci) is, comments at the
// top aside, the config hack/golangci-plugin/build.sh (make lint-plugin)
// runs golangci-lint v2.15.0 and the statuspatch plugin with: what init
// writes is what that check loads.
func TestInitGolangciAsPluginTestdata(t *testing.T) {
	inputs, err := filepath.Glob(filepath.Join("testdata", "init-golangci", "kubebuilder-*.golangci.yml"))
	if err != nil || len(inputs) == 0 {
		t.Fatalf("no testdata/init-golangci/kubebuilder-*.golangci.yml: %v", err)
	}
	for _, in := range inputs {
		src, err := os.ReadFile(in)
		if err != nil {
			t.Fatal(err)
		}
		got, err := editGolangci(in, string(src))
		if err != nil {
			t.Fatal(err)
		}
		checked := filepath.Join(repoRoot(t), "hack", "golangci-plugin", "testdata", filepath.Base(in))
		b, err := os.ReadFile(checked)
		if err != nil {
			t.Fatal(err)
		}
		want := regexp.MustCompile(`\A(#.*\n)*`).ReplaceAllString(string(b), "")
		if got != want {
			t.Errorf("init's edit of %s is not %s:\n%s", in, checked, unifiedDiff(checked, want, got, false))
		}
	}
}

// TestInitMakefileComposes: in the Makefile init writes from kubebuilder
// v4.15.0's, make (dry run, -n) runs statuspatch-gen before controller-gen
// in make manifests and make generate, lint-status in make lint without
// .golangci.yml, and warns of no replaced recipe.
func TestInitMakefileComposes(t *testing.T) {
	if _, err := exec.LookPath("make"); err != nil {
		t.Skip("no make")
	}
	dir := t.TempDir()
	copyTree(t, filepath.Join("testdata", "init", "v4.15", "before"), dir, nil)
	if err := os.Remove(filepath.Join(dir, ".golangci.yml")); err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	if err := RunInit(append(append([]string{}, initArgs...), dir), &out, &out); err != nil {
		t.Fatalf("%v\n%s", err, out.String())
	}
	for target, want := range map[string][]string{
		"manifests": {`statuspatch-gen" paths=./api/...`, `controller-gen" rbac:roleName=manager-role`},
		"generate":  {`statuspatch-gen" paths=./api/...`, `controller-gen" object:headerFile=`},
		"lint":      {`statuspatch-lint" ./...`, `golangci-lint" run`},
	} {
		cmd := exec.Command("make", "-n", target)
		cmd.Dir = dir
		b, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("make -n %s: %v\n%s", target, err, b)
		}
		if bytes.Contains(b, []byte("overriding recipe")) {
			t.Errorf("make -n %s warns:\n%s", target, b)
		}
		first, second := bytes.Index(b, []byte(want[0])), bytes.Index(b, []byte(want[1]))
		if first < 0 || second < 0 || first > second {
			t.Errorf("make -n %s does not run %q before %q:\n%s", target, want[0], want[1], b)
		}
	}
}

// TestInitDryRunTidy: -dry-run names the go get it would run (the
// statuspatch modules go.mod lacks, at the version) and go mod tidy.
func TestInitDryRunTidy(t *testing.T) {
	for gomod, want := range map[string]string{
		"module example.com/widgets\n\ngo 1.25.0\n": "would run go get github.com/statuspatch/statuspatch@v0.1.0 github.com/statuspatch/statuspatch/testenv@v0.1.0\n",
		"module example.com/widgets\n\ngo 1.25.0\n\nrequire github.com/statuspatch/statuspatch v0.1.0 // indirect\n":                                     "would run go get github.com/statuspatch/statuspatch/testenv@v0.1.0\n",
		"module example.com/widgets\n\nrequire (\n\tgithub.com/statuspatch/statuspatch v0.1.0\n\tgithub.com/statuspatch/statuspatch/testenv v0.1.0\n)\n": "",
	} {
		dir := t.TempDir()
		copyTree(t, filepath.Join("testdata", "init", "v4.3", "before"), dir, nil)
		writeFile(t, filepath.Join(dir, "go.mod"), gomod)
		before := readTree(t, dir)
		var out bytes.Buffer
		if err := RunInit([]string{"-version", "v0.1.0", "-dry-run", dir}, &out, &out); err != nil {
			t.Fatal(err)
		}
		got := out.String()
		if !strings.HasSuffix(got, want+"statuspatch-gen init: would run go mod tidy (then go get github.com/statuspatch/statuspatch/patcher at the version go.mod requires, if go.sum lacks its checksum)\n") || want == "" && strings.Contains(got, "would run go get") {
			t.Errorf("go.mod %q: -dry-run ends\n%s\nwant %q, then go mod tidy", gomod, got[max(0, len(got)-300):], want)
		}
		compareTrees(t, "after -dry-run", readTree(t, dir), before)
	}
}

// TestInitGolangciYaml: a project whose golangci-lint configuration is
// .golangci.yaml (golangci-lint reads it when there is no .golangci.yml)
// gets the plugin's lint route and edits as with .golangci.yml: the same
// Makefile and configuration as testdata/init/v4.15/after, under its own
// name, and .custom-gcl.yml removed; a second run changes nothing.
func TestInitGolangciYaml(t *testing.T) {
	dir := t.TempDir()
	copyTree(t, filepath.Join("testdata", "init", "v4.15", "before"), dir, nil)
	if err := os.Rename(filepath.Join(dir, ".golangci.yml"), filepath.Join(dir, ".golangci.yaml")); err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	if err := RunInit(append(append([]string{}, initArgs...), dir), &out, &out); err != nil {
		t.Fatalf("%v\n%s", err, out.String())
	}
	after := filepath.Join("testdata", "init", "v4.15", "after")
	for got, want := range map[string]string{"Makefile": "Makefile", ".golangci.yaml": ".golangci.yml"} {
		g, err := os.ReadFile(filepath.Join(dir, got))
		if err != nil {
			t.Fatal(err)
		}
		w, err := os.ReadFile(filepath.Join(after, want))
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(g, w) {
			t.Errorf("%s after init is not testdata/init/v4.15/after/%s:\n%s", got, want, unifiedDiff(want, string(w), string(g), false))
		}
	}
	for _, gone := range []string{".golangci.yml", ".custom-gcl.yml"} {
		if _, err := os.Stat(filepath.Join(dir, gone)); !os.IsNotExist(err) {
			t.Errorf("%s after init: %v, want it absent", gone, err)
		}
	}
	out.Reset()
	if err := RunInit(append(append([]string{}, initArgs...), dir), &out, &out); err != nil || !strings.Contains(out.String(), "nothing to change") {
		t.Errorf("second run: %v, want nothing to change:\n%s", err, out.String())
	}
}

// TestInitGolangciOtherWiring: a golangci-lint configuration beside a
// Makefile that installs golangci-lint otherwise than kubebuilder's
// scaffold (spark-operator's GOLANGCI_LINT ?= $(LOCALBIN)/golangci-lint-
// $(GOLANGCI_LINT_VERSION)): init does not refuse the project; it says
// why, adds lint-status to make lint as without a configuration, and
// leaves golangci-lint, the configuration and .custom-gcl.yml as they are.
func TestInitGolangciOtherWiring(t *testing.T) {
	dir := t.TempDir()
	copyTree(t, filepath.Join("testdata", "init", "v4.15", "before"), dir, nil)
	if err := os.Rename(filepath.Join(dir, ".golangci.yml"), filepath.Join(dir, ".golangci.yaml")); err != nil {
		t.Fatal(err)
	}
	mk := filepath.Join(dir, "Makefile")
	b, err := os.ReadFile(mk)
	if err != nil {
		t.Fatal(err)
	}
	const kb, spark = "GOLANGCI_LINT = $(LOCALBIN)/golangci-lint\n", "GOLANGCI_LINT ?= $(LOCALBIN)/golangci-lint-$(GOLANGCI_LINT_VERSION)\n"
	if !bytes.Contains(b, []byte(kb)) {
		t.Fatalf("testdata's Makefile has no %q", kb)
	}
	writeFile(t, mk, strings.Replace(string(b), kb, spark, 1))
	before := readTree(t, dir)
	var out bytes.Buffer
	if err := RunInit(append(append([]string{}, initArgs...), dir), &out, &out); err != nil {
		t.Fatalf("init refused: %v\n%s", err, out.String())
	}
	if !strings.Contains(out.String(), "no GOLANGCI_LINT ?= $(LOCALBIN)/golangci-lint line") || !strings.Contains(out.String(), "make lint runs lint-status, and golangci-lint and .golangci.yaml stay as they are") {
		t.Errorf("init does not say why it leaves golangci-lint:\n%s", out.String())
	}
	after := readTree(t, dir)
	for _, same := range []string{".golangci.yaml", ".custom-gcl.yml"} {
		if after[same] == "" || after[same] != before[same] {
			t.Errorf("%s changed or is gone", same)
		}
	}
	got := after["Makefile"]
	if !strings.Contains(got, spark) || !strings.HasSuffix(got, makefileBlock("v0.1.0", v4Block)) {
		t.Errorf("the Makefile does not keep its golangci-lint line and end with the block without the plugin:\n%s", got)
	}
}

// TestInitAllOrNothing: when go get or go mod tidy fails after the edits
// are written (here: no module proxy), init puts back every file it wrote
// or removed, and go.mod and go.sum, and says so: the tree is as before.
func TestInitAllOrNothing(t *testing.T) {
	dir := t.TempDir()
	copyTree(t, filepath.Join("testdata", "init", "v4.15", "before"), dir, nil)
	writeFile(t, filepath.Join(dir, "go.mod"), "module example.com/crew\n\ngo 1.24.0\n")
	before := readTree(t, dir)
	t.Setenv("GOPROXY", "off")
	t.Setenv("GOFLAGS", "-mod=mod")
	var out bytes.Buffer
	err := RunInit([]string{"-version", "v0.1.0", dir}, &out, &out)
	if err == nil || !strings.Contains(err.Error(), "go get") || !strings.Contains(err.Error(), "docs/kubebuilder.md#by-hand") {
		t.Fatalf("init with go get failing: %v\n%s", err, out.String())
	}
	if !strings.Contains(out.String(), "wrote Makefile") || !strings.Contains(out.String(), "put back every file above, and go.mod and go.sum: nothing is changed") {
		t.Errorf("init does not say it put the files back:\n%s", out.String())
	}
	compareTrees(t, "after a failed go get", readTree(t, dir), before)
}

// TestInitNoProjectNoReconciler: without PROJECT, reconcilers init does
// not find are named, with the flag that says where they are; the kinds
// still get the Makefile block and their token notes.
func TestInitNoProjectNoReconciler(t *testing.T) {
	_, notes, err := planInit(filepath.Join("testdata", "init", "flags", "before"), "v0.1.0")
	if err != nil {
		t.Fatal(err)
	}
	want := "statuspatch-gen init: no starter test, and no reconciler wired to patcher.ForManager: no type <Kind>Reconciler for a kind of apis in no folder (none of internal/controller, internal/controllers, controllers, pkg/controller, pkg/controllers is there); pass -controllers with the folder(s) of your reconcilers"
	if !slices.Contains(notes, want) {
		t.Errorf("init does not say\n%s\nit says:\n%s", want, strings.Join(notes, "\n"))
	}
}

// TestInitFoldersWithoutKindReconciler: without PROJECT, with the
// reconcilers' folder given (-controllers) but their type not named
// <Kind>Reconciler (operator-sdk's one Reconciler per package), the note
// no longer asks for -controllers again (helper U4's F4): it says init
// knows a reconciler by its name and gives the route by hand.
func TestInitFoldersWithoutKindReconciler(t *testing.T) {
	dir := t.TempDir()
	copyTree(t, filepath.Join("testdata", "init", "flags", "before"), dir, nil)
	src := filepath.Join(dir, "internal", "reconcilers", "backup.go")
	b, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(src, bytes.ReplaceAll(b, []byte("BackupReconciler"), []byte("Reconciler")), 0o644); err != nil {
		t.Fatal(err)
	}
	_, notes, err := planLayout(dir, "v0.1.0", layoutFlags{api: []string{"apis"}, controllers: []string{"internal/reconcilers"}})
	if err != nil {
		t.Fatal(err)
	}
	want := "statuspatch-gen init: no starter test, and no reconciler wired to patcher.ForManager: no type <Kind>Reconciler for a kind of apis in internal/reconcilers (init knows a reconciler by that name alone: a type named Reconciler, one per package, is not one): wire patcher.ForManager in your reconcilers' setup and write a decides-once test by hand (docs/kubebuilder.md#by-hand)"
	if !slices.Contains(notes, want) {
		t.Errorf("init does not say\n%s\nit says:\n%s", want, strings.Join(notes, "\n"))
	}
}
