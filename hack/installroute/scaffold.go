package installroute

import (
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/statuspatch/statuspatch/hack/internal/wsversions"
)

// The newcomer route's scaffold: hack/installtest's operator and
// kubebuilder's suite, the reconciler and PROJECT of testdata/newcomer, a
// go.mod pinned at the line, kubebuilder's Makefile, its tools in bin/
// under go-install-tool's names, and the server-side apply set up as
// kubebuilder's create api --ssa sets it up where the line's
// controller-runtime has the status subresource's Apply.

//go:embed testdata/newcomer
var newcomerFiles embed.FS

// kubebuilderMakefile is kubebuilder v4.15.0's Makefile word for word (the
// init goldens' input), from the repository's root.
const kubebuilderMakefile = "cmd/statuspatch-gen/internal/scaffold/testdata/init/v4.15/before/Makefile"

// scaffold makes the scaffold at the line and records its go.mod's pins.
func (n *newcomerRun) scaffold() error {
	n.op = filepath.Join(n.work, "operator")
	testdata := filepath.Join(n.root, "hack", "installtest", "testdata")
	if err := os.CopyFS(n.op, os.DirFS(filepath.Join(testdata, "operator"))); err != nil {
		return err
	}
	if err := os.Remove(n.file("internal/controller/widget_controller_test.go")); err != nil {
		return err
	}
	// kubebuilder's Ginkgo suite and controller test, as it scaffolds them
	if err := os.CopyFS(n.op, os.DirFS(filepath.Join(testdata, "kubebuilder"))); err != nil {
		return err
	}
	if err := n.embedded("scaffold/internal/controller/widget_controller.go", "internal/controller/widget_controller.go"); err != nil {
		return err
	}
	// go.mod pinned as operators pin, at the line: require and replace.
	// (Ginkgo and Gomega, which the suite imports, at the versions the
	// line's controller-runtime requires.)
	if err := os.WriteFile(n.file("go.mod"), []byte(n.line.GoMod("example.com/widgets")), 0o644); err != nil {
		return err
	}
	if n.r.run(n.op, "go", "mod", "tidy") != nil {
		return failf("go mod tidy failed in the scaffold (above)")
	}
	// At the line the workspace builds, every module the scaffold shares
	// with the workspace takes the workspace's version (internal/wsversions),
	// not tidy's lower one: a go.mod a user could have as well, and the
	// build cache then serves make test's compile. (GOWORK is off for the
	// scaffold; the workspace's versions are go.work's.)
	if n.wsLine {
		if err := wsversions.Apply(n.r.userGo(), n.root, n.op, n.file("go.mod"), n.r.stderr); err != nil {
			fmt.Fprintf(n.r.stderr, "workspace-versions: %v\n", err)
			return failf("the scaffold at the workspace's versions (hack/workspace-versions.sh) failed (above)")
		}
	}
	if err := n.embedded("scaffold/PROJECT", "PROJECT"); err != nil {
		return err
	}
	mk, err := os.ReadFile(filepath.Join(n.root, kubebuilderMakefile))
	if err != nil {
		return err
	}
	if err := os.WriteFile(n.file("Makefile"), mk, 0o644); err != nil {
		return err
	}
	// controller-gen and golangci-lint as kubebuilder's go-install-tool
	// leaves them: bin/NAME-VERSION, and bin/NAME a link to it.
	// kubebuilder v4.15's golangci-lint files beside its Makefile: init
	// makes make lint run statuspatch's golangci-lint build with every
	// linter of kubebuilder's .golangci.yml, as in a user's project. The
	// golangci-lint the scaffold pins only fails, saying so: make lint
	// must not run it after init.
	for _, f := range []string{".golangci.yml", ".custom-gcl.yml"} {
		if err := copyFile(filepath.Join(n.root, filepath.Dir(kubebuilderMakefile), f), n.file(f)); err != nil {
			return err
		}
	}
	standIn := filepath.Join(n.work, "golangci-lint")
	if err := os.WriteFile(standIn, []byte(golangciUnwired), 0o755); err != nil {
		return err
	}
	for _, t := range []struct{ name, variable, src string }{
		{"controller-gen", "CONTROLLER_TOOLS_VERSION", n.cg},
		{"golangci-lint", "GOLANGCI_LINT_VERSION", standIn},
	} {
		if err := preinstall(n.op, string(mk), t.name, t.variable, t.src); err != nil {
			return err
		}
	}
	if err := editFile(n.file("api/v1/widget_types.go"), addSummary); err != nil {
		return err
	}
	if err := n.embedded("status.go", "internal/status/status.go"); err != nil {
		return err
	}
	if err := n.fleet(); err != nil {
		return err
	}
	apply, err := n.hasStatusApply()
	if err != nil {
		return err
	}
	if apply {
		if err := n.embedded("widget_phase_apply.go", "internal/controller/widget_phase.go"); err != nil {
			return err
		}
		if err := n.ssa(); err != nil {
			return err
		}
	} else {
		n.r.printf("newcomer-test: controller-runtime %s has no status Apply (SubResourceWriter.Apply): the scaffold's server-side applies are client.Apply patches of a typed and an unstructured object\n", n.line.CR)
		for _, f := range [][2]string{{"widget_summary_patch.go", "internal/controller/widget_summary.go"}, {"widget_phase_patch.go", "internal/controller/widget_phase.go"}} {
			if err := n.embedded(f[0], f[1]); err != nil {
				return err
			}
		}
	}
	n.writes = 8
	n.before, err = readPins(n.file("go.mod"))
	return err
}

// embedded writes testdata/newcomer's file name to the scaffold's path.
func (n *newcomerRun) embedded(name, path string) error {
	b, err := newcomerFiles.ReadFile("testdata/newcomer/" + name)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(n.file(path)), 0o755); err != nil {
		return err
	}
	return os.WriteFile(n.file(path), b, 0o644)
}

// hasStatusApply reports whether the line's controller-runtime has the
// status subresource's Apply (SubResourceWriter.Apply), in its source in
// the module cache.
func (n *newcomerRun) hasStatusApply() (bool, error) {
	out, err := n.r.output(n.op, nil, "go", "mod", "download", "-json", "sigs.k8s.io/controller-runtime@"+n.line.CR)
	var m struct{ Dir string }
	if err == nil {
		err = json.Unmarshal([]byte(out), &m)
	}
	src, rerr := os.ReadFile(filepath.Join(m.Dir, "pkg", "client", "interfaces.go"))
	if err != nil || m.Dir == "" || rerr != nil {
		return false, failf("cannot find controller-runtime %s's source in the module cache", n.line.CR)
	}
	return strings.Contains(string(src), "SubResourceApplyOption) error"), nil
}

// ssa sets up the server-side apply status write as kubebuilder's `create
// api --ssa` sets it up (kubebuilder's master, after v4.15.0:
// pkg/plugins/golang/v4/scaffolds/api.go): the package's
// +kubebuilder:ac:generate=true, the kind's +genclient and
// +kubebuilder:resource:path, applyconfiguration in the manifests target;
// the apply configurations generated as that target generates them, and a
// reconciler that applies a status field of its own.
func (n *newcomerRun) ssa() error {
	for _, e := range []struct {
		file string
		edit func(string) string
	}{
		{"api/v1/groupversion_info.go", acGenerate},
		{"api/v1/widget_types.go", genclient},
		{"Makefile", manifestsApplyConfiguration},
	} {
		if err := editFile(n.file(e.file), e.edit); err != nil {
			return err
		}
	}
	var texts []string
	for _, f := range []string{"api/v1/groupversion_info.go", "api/v1/widget_types.go", "Makefile"} {
		b, err := os.ReadFile(n.file(f))
		if err != nil {
			return err
		}
		texts = append(texts, string(b))
	}
	if !ssaSetUp(texts[0], texts[1], texts[2]) {
		return failf("the --ssa set-up did not edit groupversion_info.go, widget_types.go and the Makefile's manifests target as kubebuilder's create api --ssa does")
	}
	if n.r.run(n.op, "bin/controller-gen", "applyconfiguration:headerFile=hack/boilerplate.go.txt", "paths=./api/...") != nil {
		return failf("controller-gen applyconfiguration failed (above)")
	}
	if _, err := os.Stat(n.file("api/v1/applyconfiguration/api/v1/widget.go")); err != nil {
		return failf("controller-gen wrote no api/v1/applyconfiguration/api/v1/widget.go")
	}
	if err := n.embedded("widget_summary_apply.go", "internal/controller/widget_summary.go"); err != nil {
		return err
	}
	if n.r.run(n.op, "go", "mod", "tidy") != nil {
		return failf("go mod tidy failed in the scaffold after the apply configurations (above)")
	}
	return nil
}

// makefileVar is the value of the Makefile's first "NAME ?= VALUE" line.
func makefileVar(mk, name string) string {
	for _, l := range strings.Split(mk, "\n") {
		if f := strings.Fields(l); len(f) >= 3 && f[0] == name && f[1] == "?=" {
			return f[2]
		}
	}
	return ""
}

// preinstall puts src in op's bin/ as kubebuilder's go-install-tool leaves
// a tool: bin/NAME-VERSION (VERSION: the Makefile's variable), and
// bin/NAME a link to it.
func preinstall(op, mk, name, variable, src string) error {
	version := makefileVar(mk, variable)
	if version == "" {
		return failf("kubebuilder's Makefile has no %s", variable)
	}
	bin := filepath.Join(op, "bin")
	if err := os.MkdirAll(bin, 0o755); err != nil {
		return err
	}
	target := filepath.Join(bin, name+"-"+version)
	if err := copyFile(src, target); err != nil {
		return err
	}
	link := filepath.Join(bin, name)
	if err := os.Remove(link); err != nil && !os.IsNotExist(err) {
		return err
	}
	return os.Symlink(target, link)
}

// copyFile copies src (followed if a link) to dst with its mode.
func copyFile(src, dst string) error {
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	fi, err := in.Stat()
	if err != nil {
		return err
	}
	out, err := os.OpenFile(dst, os.O_CREATE|os.O_TRUNC|os.O_WRONLY, fi.Mode().Perm())
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		_ = out.Close()
		return err
	}
	return out.Close()
}

// editFile rewrites the file at path with edit.
func editFile(path string, edit func(string) string) error {
	b, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	fi, err := os.Stat(path)
	if err != nil {
		return err
	}
	return os.WriteFile(path, []byte(edit(string(b))), fi.Mode().Perm())
}

// insertAfter inserts add (lines, without their newline) after every line
// of text that is line.
func insertAfter(text, line string, add ...string) string {
	var out []string
	for _, l := range strings.Split(text, "\n") {
		out = append(out, l)
		if l == line {
			out = append(out, add...)
		}
	}
	return strings.Join(out, "\n")
}

// addSummary gives WidgetStatus a Summary field, after Conditions: the
// field the typed server-side apply writes; and a Phase, which the
// unstructured apply and internal/status's MarkFailed write.
func addSummary(types string) string {
	return insertAfter(types, "\tConditions []metav1.Condition `json:\"conditions,omitempty\"`",
		"\t// Summary says how many parts the widget has.", "\t// +optional", "\tSummary string `json:\"summary,omitempty\"`",
		"\t// Phase is Ready, or Failed.", "\t// +optional", "\tPhase string `json:\"phase,omitempty\"`")
}

// acGenerate marks the package for apply configurations.
func acGenerate(gv string) string {
	return insertAfter(gv, "// +kubebuilder:object:generate=true", "// +kubebuilder:ac:generate=true")
}

// genclient marks the kind +genclient, with its resource path.
func genclient(types string) string {
	types = insertAfter(types, "// Widget is the install test's one kind.", "// +genclient")
	return insertAfter(types, "// +kubebuilder:subresource:status", "// +kubebuilder:resource:path=widgets")
}

const manifestsLine = "manifests: controller-gen ## Generate WebhookConfiguration, ClusterRole and CustomResourceDefinition objects."

// manifestsApplyConfiguration makes kubebuilder's manifests target also
// generate the apply configurations, as --ssa scaffolds it.
func manifestsApplyConfiguration(mk string) string {
	ls := strings.Split(mk, "\n")
	for i, l := range ls {
		switch {
		case l == manifestsLine:
			ls[i] = strings.TrimSuffix(l, ".") + " and ApplyConfiguration types."
		case strings.HasPrefix(l, "\t\"$(CONTROLLER_GEN)\" rbac:roleName=manager-role crd webhook "):
			ls[i] = strings.Replace(l, "crd webhook ", `crd webhook applyconfiguration:headerFile="hack/boilerplate.go.txt" `, 1)
		}
	}
	return strings.Join(ls, "\n")
}

// ssaSetUp reports whether the --ssa edits are all there.
func ssaSetUp(gv, types, mk string) bool {
	marks := 0
	for _, l := range strings.Split(types, "\n") {
		if strings.Contains(l, "+genclient") || strings.Contains(l, "+kubebuilder:resource:path=widgets") || strings.Contains(l, "Summary string") {
			marks++
		}
	}
	manifests := false
	for _, l := range strings.Split(mk, "\n") {
		if strings.HasSuffix(l, "ApplyConfiguration types.") {
			manifests = true
		}
	}
	return strings.Contains(gv, "ac:generate=true") && marks == 3 && manifests &&
		strings.Contains(mk, "crd webhook applyconfiguration:headerFile=")
}

// sums are the sha256 sums of the regular files under dir but for its
// bin/, by path relative to dir.
func sums(dir string) (map[string]string, error) {
	out := map[string]string{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		if d.IsDir() && rel == "bin" {
			return filepath.SkipDir
		}
		if !d.Type().IsRegular() {
			return nil
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		s := sha256.Sum256(b)
		out[rel] = hex.EncodeToString(s[:])
		return nil
	})
	return out, err
}

// sumsDiff says which files differ between two sums: changed, added,
// removed; "" when none.
func sumsDiff(before, after map[string]string) string {
	var out []string
	for p, s := range after {
		switch b, ok := before[p]; {
		case !ok:
			out = append(out, "added "+p)
		case b != s:
			out = append(out, "changed "+p)
		}
	}
	for p := range before {
		if _, ok := after[p]; !ok {
			out = append(out, "removed "+p)
		}
	}
	slices.Sort(out)
	return strings.Join(out, ", ")
}

// golangciUnwired is the scaffold's own golangci-lint (GOLANGCI_LINT_VERSION):
// after init, whose golangci-lint edits make GOLANGCI_LINT statuspatch's
// build, make lint must not run it. Issue 80: a stand-in here that ran
// modernize alone let init's starter test fail a user's make lint on
// staticcheck's S1007 for a stop; make lint now runs every linter of
// kubebuilder's .golangci.yml through the build init wires.
const golangciUnwired = "#!/bin/sh\n" +
	"echo \"golangci-lint $*: the scaffold's own golangci-lint ran, not statuspatch's build: init did not wire make lint (docs/kubebuilder.md, One lint route)\" >&2\n" +
	"exit 1\n"
