package bench

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
)

// An API is a published operator's API package, taken as a module
// dependency (read-only, in the module cache).
type API struct{ Name, ModVersion, Package string }

// RealAPIs are the packages RealAPIs runs statuspatch-gen on.
var RealAPIs = []API{
	{"capi", "sigs.k8s.io/cluster-api/api@v1.14.2", "sigs.k8s.io/cluster-api/api/core/v1beta2"},
	{"certmanager", "github.com/cert-manager/cert-manager@v1.21.2", "github.com/cert-manager/cert-manager/pkg/apis/certmanager/v1"},
	{"acme", "github.com/cert-manager/cert-manager@v1.21.2", "github.com/cert-manager/cert-manager/pkg/apis/acme/v1"},
	{"monitoring", "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring@v0.94.1", "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"},
}

// RealAPIModule is the scratch module's go.mod and tools.go (which keeps
// the API packages and the runtime package the patchers import).
func RealAPIModule(root string, apis []API) (gomod, tools string) {
	gomod = fmt.Sprintf("module example.com/realapis\n\ngo 1.26.0\n\nrequire %s v0.0.0\n\nreplace %s => %s\n", module, module, root)
	var b strings.Builder
	b.WriteString("package tools\n\nimport (\n\t_ \"" + module + "/patcher\"\n")
	for _, a := range apis {
		fmt.Fprintf(&b, "\t_ %q\n", a.Package)
	}
	b.WriteString(")\n")
	return gomod, b.String()
}

// CountLines is how many lines of the texts hold s.
func CountLines(s string, texts ...string) int {
	n := 0
	for _, t := range texts {
		for l := range strings.Lines(t) {
			if strings.Contains(l, s) {
				n++
			}
		}
	}
	return n
}

// RealAPIs runs statuspatch-gen (Gen) with output:dir= on apis in a
// scratch module in Work, at the k8s.io and controller-runtime versions
// statuspatch pins, and checks that every kind with a status subresource
// got a patcher and that the result builds and vets.
func RunRealAPIs(root, gen, work string, apis []API, w io.Writer) error {
	gomod, tools := RealAPIModule(root, apis)
	if err := os.MkdirAll(filepath.Join(work, "tools"), 0o755); err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(work, "go.mod"), []byte(gomod), 0o644); err != nil {
		return err
	}
	goIn := func(dir string, args ...string) Cmd {
		return Cmd{Dir: dir, Env: []string{"GOWORK=off"}, Args: append([]string{"go"}, args...)}
	}
	pins, err := Cmd{Dir: root, Args: []string{"go", "list", "-m", "-f", "{{.Path}}@{{.Version}}",
		"k8s.io/api", "k8s.io/apimachinery", "k8s.io/client-go", "sigs.k8s.io/controller-runtime"}}.Output(w)
	if err != nil {
		return err
	}
	for _, mv := range strings.Fields(pins) {
		if _, err := goIn(work, "mod", "edit", "-require="+mv).Quiet(); err != nil {
			return err
		}
	}
	for _, a := range apis {
		if _, err := goIn(work, "get", a.ModVersion).Quiet(); err != nil {
			return err
		}
	}
	if err := os.WriteFile(filepath.Join(work, "tools", "tools.go"), []byte(tools), 0o644); err != nil {
		return err
	}
	_, _ = goIn(work, "mod", "tidy", "-e").Quiet()
	var failed []string
	for _, a := range apis {
		dir, err := goIn(work, "list", "-f", "{{.Dir}}", a.Package).Output(w)
		if err != nil {
			return err
		}
		files, _ := filepath.Glob(filepath.Join(strings.TrimSpace(dir), "*.go"))
		var texts []string
		for _, f := range files {
			b, err := os.ReadFile(f)
			if err != nil {
				return err
			}
			texts = append(texts, string(b))
		}
		want := CountLines("+kubebuilder:subresource:status", texts...)
		u, err := Cmd{Dir: work, Args: []string{gen, "paths=" + a.Package, "output:dir=./patchers/" + a.Name}}.Run(w, w)
		if err != nil {
			fmt.Fprintf(w, "FAIL %s (%s): generation failed: %v\n", a.Name, a.Package, err)
			failed = append(failed, a.Name)
			continue
		}
		out, _ := os.ReadFile(filepath.Join(work, "patchers", a.Name, "zz_generated.statuspatch.go"))
		got := CountLines("StatusPatcher struct {", string(out))
		fmt.Fprintf(w, "%-12s %-70s status-subresource markers: %3d  patchers: %3d  (%.2fs)\n", a.Name, a.Package, want, got, u.Wall.Seconds())
		if got != want {
			fmt.Fprintf(w, "FAIL %s: %d kinds with a status subresource, %d patchers\n", a.Name, want, got)
			failed = append(failed, a.Name)
		}
	}
	_, _ = goIn(work, "mod", "tidy", "-e").Quiet()
	if _, err := goIn(work, "build", "./...").Run(w, w); err != nil {
		return fmt.Errorf("the generated patchers do not build: %w", err)
	}
	if _, err := goIn(work, "vet", "./patchers/...").Run(w, w); err != nil {
		return fmt.Errorf("the generated patchers do not vet: %w", err)
	}
	fmt.Fprintf(w, "build+vet OK (%s)\n", work)
	if failed != nil {
		return fmt.Errorf("real APIs: %s failed (above)", strings.Join(failed, ", "))
	}
	return nil
}
