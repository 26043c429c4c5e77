package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/statuspatch/statuspatch/hack/internal/gocmd"
)

// TestUpdate: compat.sh update in a folder shaped like the repository:
// each line's alternate go.mod files copied from the modules' own, the go
// commands that pin them in order (the caller's Go, GOWORK=off), the
// workspace's versions for testenv and the explorer at the workspace's
// line only, and
// below's go.mod pinning controller-runtime by replace.
func TestUpdate(t *testing.T) {
	r, f, _, notes, table := newRoute(t, func(c gocmd.Cmd) (string, error) {
		switch {
		case c.Verb[0] != "list":
			return "", nil
		case c.Workspace: // the workspace builds the sample's workspace line
			return "sigs.k8s.io/controller-runtime v0.14.1\nk8s.io/api v0.42.6\nexample.com/x v1.2.0\n", nil
		default:
			return "example.com/x v1.1.0\n", nil
		}
	})
	t.Chdir(t.TempDir())
	for _, dir := range []string{".", "testenv", "testenv/explore", goldens} {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		for _, name := range []string{"go.mod", "go.sum"} {
			if err := os.WriteFile(filepath.Join(dir, name), []byte(dir+" "+name+"\n"), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	if code := r.main([]string{"update"}, table); code != 0 {
		t.Fatalf("exit %d: %s", code, notes)
	}
	ran := strings.Join(f.Ran, "\n")
	const g = "cmd/statuspatch-gen/generator/testdata"
	pins := func(k8s ...string) string {
		var s []string
		for _, m := range k8s {
			s = append(s, "-require=k8s.io/"+m+"@v0.40.0")
		}
		return "-require=sigs.k8s.io/controller-runtime@v0.12.0 " + strings.Join(s, " ")
	}
	firstLine := strings.Join([]string{
		"(cd . && GOWORK=off go mod edit -modfile=hack/compat/v0.12/root.mod " + pins("api", "apimachinery", "client-go") + ")",
		"(cd . && GOWORK=off go mod tidy -modfile=hack/compat/v0.12/root.mod)",
		"(cd testenv && GOWORK=off go mod edit -modfile=../hack/compat/v0.12/testenv.mod " + pins("api", "apimachinery", "client-go", "apiextensions-apiserver", "apiserver") + ")",
		"(cd testenv && GOWORK=off go mod edit -modfile=../hack/compat/v0.12/testenv.mod -replace=github.com/statuspatch/statuspatch@v0.1.0=../ -replace=github.com/statuspatch/statuspatch/testenv/explore@v0.1.0=./explore)",
		"(cd testenv && GOWORK=off go mod tidy -modfile=../hack/compat/v0.12/testenv.mod)",
		"(cd . && go list -m -f {{.Path}} {{.Version}} all)",
		"(cd testenv/explore && GOWORK=off go mod edit -modfile=../../hack/compat/v0.12/explore.mod " + pins("api", "apimachinery", "client-go") + ")",
		"(cd testenv/explore && GOWORK=off go mod edit -modfile=../../hack/compat/v0.12/explore.mod -replace=github.com/statuspatch/statuspatch@v0.1.0=../../)",
		"(cd testenv/explore && GOWORK=off go mod tidy -modfile=../../hack/compat/v0.12/explore.mod)",
		"(cd . && go list -m -f {{.Path}} {{.Version}} all)",
		"(cd " + g + " && GOWORK=off go mod edit -modfile=../../../../hack/compat/v0.12/goldens.mod " + pins("api", "apimachinery", "client-go") + ")",
		"(cd " + g + " && GOWORK=off go mod tidy -modfile=../../../../hack/compat/v0.12/goldens.mod)",
	}, "\n")
	if !strings.HasPrefix(ran, firstLine+"\n") {
		t.Errorf("the floor's commands:\n%s\nwant first\n%s", ran, firstLine)
	}
	wsLine := strings.Join([]string{
		"(cd testenv && GOWORK=off go mod tidy -modfile=../hack/compat/v0.14/testenv.mod)",
		"(cd . && go list -m -f {{.Path}} {{.Version}} all)",
		"(cd . && go list -m -f {{.Path}} {{.Version}} all)",
		"(cd testenv && GOWORK=off go list -modfile=../hack/compat/v0.14/testenv.mod -m -f {{.Path}} {{.Version}} all)",
		"(cd testenv && GOWORK=off go mod edit -modfile=../hack/compat/v0.14/testenv.mod -require=example.com/x@v1.2.0)",
		"(cd testenv && GOWORK=off go mod tidy -modfile=../hack/compat/v0.14/testenv.mod)",
		"(cd testenv/explore && GOWORK=off go mod edit -modfile=../../hack/compat/v0.14/explore.mod",
	}, "\n")
	if !strings.Contains(ran, wsLine) {
		t.Errorf("the workspace's line's testenv.mod does not take the workspace's versions:\n%s\nwant\n%s", ran, wsLine)
	}
	wsExplore := strings.Join([]string{
		"(cd testenv/explore && GOWORK=off go mod tidy -modfile=../../hack/compat/v0.14/explore.mod)",
		"(cd . && go list -m -f {{.Path}} {{.Version}} all)",
		"(cd . && go list -m -f {{.Path}} {{.Version}} all)",
		"(cd testenv/explore && GOWORK=off go list -modfile=../../hack/compat/v0.14/explore.mod -m -f {{.Path}} {{.Version}} all)",
		"(cd testenv/explore && GOWORK=off go mod edit -modfile=../../hack/compat/v0.14/explore.mod -require=example.com/x@v1.2.0)",
		"(cd testenv/explore && GOWORK=off go mod tidy -modfile=../../hack/compat/v0.14/explore.mod)",
	}, "\n")
	if !strings.Contains(ran, wsExplore) {
		t.Errorf("the workspace's line's explore.mod does not take the workspace's versions:\n%s\nwant\n%s", ran, wsExplore)
	}
	below := "(cd . && GOWORK=off go mod edit -modfile=hack/compat/below/root.mod -replace=sigs.k8s.io/controller-runtime=sigs.k8s.io/controller-runtime@v0.11.0)\n" +
		"(cd . && GOWORK=off go mod tidy -e -modfile=hack/compat/below/root.mod)"
	if !strings.HasSuffix(ran, below) {
		t.Errorf("below's commands are not last:\n%s", ran)
	}
	if n := strings.Count(ran, "go list -m"); n != 2*(3+2) {
		t.Errorf("%d go list -m, want, for testenv and the explorer, one at each line, two more and the module's at the workspace's line", n)
	}
	for file, want := range map[string]string{
		"hack/compat/v0.13/testenv.mod": "testenv go.mod\n",
		"hack/compat/v0.13/testenv.sum": "testenv go.sum\n",
		"hack/compat/v0.12/goldens.mod": g + " go.mod\n",
		"hack/compat/below/root.sum":    ". go.sum\n",
	} {
		if b, err := os.ReadFile(file); err != nil || string(b) != want {
			t.Errorf("%s = %q, %v; want a copy of the module's (%q)", file, b, err, want)
		}
	}
	wantNotes := "hack/compat/v0.12: controller-runtime v0.12.0, k8s.io v0.40.0\n" +
		"hack/compat/v0.13: controller-runtime v0.13.3, k8s.io v0.41.4\n" +
		"hack/compat/v0.14: controller-runtime v0.14.1, k8s.io v0.42.6\n" +
		"  testenv at the workspace's versions: example.com/x@v1.2.0\n" +
		"  explore at the workspace's versions: example.com/x@v1.2.0\n" +
		"hack/compat/below: controller-runtime v0.11.0 by replace\n"
	if notes.String() != wantNotes {
		t.Errorf("notes:\n%s\nwant\n%s", notes, wantNotes)
	}
}
