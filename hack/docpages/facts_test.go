package docpages

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/statuspatch/statuspatch/hack/internal/releaseproxy"
)

// TestDocsRepeatTheCode checks this repository's Markdown files (git's
// tracked and new ones, but testdata's) against the code: facts.go's
// checks. make lint runs it (hack/check-docs.sh), as does make test.
func TestDocsRepeatTheCode(t *testing.T) {
	root := filepath.Join("..", "..")
	out, err := exec.Command("git", "-C", root, "ls-files", "-co", "--exclude-standard", "*.md").Output()
	if err != nil {
		t.Fatalf("git ls-files: %v", err)
	}
	modGo, err := goLine(filepath.Join(root, "go.mod"))
	if err != nil {
		t.Fatal(err)
	}
	workGo, err := goLine(filepath.Join(root, "go.work"))
	if err != nil {
		t.Fatal(err)
	}
	tools := map[string]string{}
	for name, mod := range map[string][2]string{
		"controller-tools": {"cmd/statuspatch-gen/go.mod", "sigs.k8s.io/controller-tools"},
		"golangci-lint":    {"hack/golangci-plugin/go.mod", "github.com/golangci/golangci-lint/v2"},
	} {
		if tools[name], err = releaseproxy.RequiredVersion(filepath.Join(root, mod[0]), mod[1]); err != nil {
			t.Fatal(err)
		}
	}
	exists := func(p string) bool { _, err := os.Stat(filepath.Join(root, p)); return err == nil }
	pages := map[string]page{}
	var paths []string
	for _, p := range strings.Fields(string(out)) {
		b, err := os.ReadFile(filepath.Join(root, p))
		if strings.Contains(p, "/testdata/") || os.IsNotExist(err) {
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		pages[p] = newPage(p, string(b))
		paths = append(paths, p)
	}
	var problems []string
	h, missing := readHomes(pages["docs/kubebuilder.md"], pages["README.md"])
	problems = append(problems, missing...)
	problems = append(problems, toolVersions(pages["docs/kubebuilder.md"], tools)...)
	for _, p := range paths {
		problems = append(problems, goVersions(pages[p], modGo, workGo)...)
		problems = append(problems, links(pages[p], exists)...)
		problems = append(problems, silentVet(pages[p])...)
		problems = append(problems, h.routes(pages[p])...)
	}
	for _, p := range problems {
		t.Error(p)
	}
	if len(paths) < 10 {
		t.Errorf("%d Markdown files: %q", len(paths), paths)
	}
	t.Logf("runtime go %s, workspace go %s, %d Markdown files", modGo, workGo, len(paths))
}

func sample(path string, lines ...string) page { return newPage(path, strings.Join(lines, "\n")) }

func TestGoVersions(t *testing.T) {
	// Made-up versions: hack/lines' scan reads this file.
	p := sample("a.md", "Go 1.9 or newer, and Go 1.8 or later", "builds with Go (1.7, go.work) and Go (1.6)")
	got := goVersions(p, "1.9.0", "1.7.0")
	want := []string{
		"a.md:1: says Go 1.8 or newer is needed; the runtime's go.mod says go 1.9.0",
		"a.md:2: says this repository builds with Go 1.6; go.work says go 1.7.0",
	}
	if !slices.Equal(got, want) {
		t.Errorf("goVersions = %q, want %q", got, want)
	}
}

func TestToolVersions(t *testing.T) {
	p := sample("docs/kubebuilder.md", "| tool | version |", "| controller-tools | v0.1.0 |", "| controller-tools | v0.2.0 |")
	got := toolVersions(p, map[string]string{"controller-tools": "v0.2.0", "golangci-lint": "v2.0.0"})
	want := []string{
		"docs/kubebuilder.md:2: controller-tools is v0.2.0 in its go.mod, the table says otherwise",
		"docs/kubebuilder.md: the versions table has no row for golangci-lint",
	}
	if !slices.Equal(got, want) {
		t.Errorf("toolVersions = %q, want %q", got, want)
	}
}

func TestLinks(t *testing.T) {
	p := sample("docs/a.md", "[ok](b.md#x) [up](../README.md) [web](https://x.io/y) [anchor](#here) [mail](mailto:a@b)",
		"[gone](c.md) `[code](nothere.md)`")
	there := []string{"docs/b.md", "README.md"}
	got := links(p, func(p string) bool { return slices.Contains(there, p) })
	if want := []string{"docs/a.md:2: link to c.md: no such file"}; !slices.Equal(got, want) {
		t.Errorf("links = %q, want %q", got, want)
	}
}

func TestSilentVet(t *testing.T) {
	p := sample("docs/a.md", "go vet -vettool=$(which x) outside a fence", "```sh", `go vet -vettool="$(go tool -n statuspatch-lint)" ./...`, "go vet -vettool=$(shell which x)", "```")
	got := silentVet(p)
	if len(got) != 2 || !strings.HasPrefix(got[0], "docs/a.md:3: go vet -vettool=$(...) checks nothing") || !strings.HasPrefix(got[1], "docs/a.md:4: ") {
		t.Errorf("silentVet = %q", got)
	}
	p.path = "docs/lint.md"
	if got := silentVet(p); got != nil {
		t.Errorf("silentVet on an excluded page = %q", got)
	}
}

func TestHomes(t *testing.T) {
	kb := sample("docs/kubebuilder.md", "<!-- makefile:begin -->", "```make",
		`	"$(STATUSPATCH_GEN)" paths=./api/... output:dir=./internal/patchers  `,
		"lint-status: statuspatch-lint", "\t\"$(STATUSPATCH_LINT)\" ./...", "", "\techo done", "other:", "```", "<!-- makefile:end -->")
	readme := sample("README.md", "<!-- install:begin -->", "```sh", "# tools", "GOBIN=$PWD/bin go install github.com/statuspatch/statuspatch/cmd/statuspatch-gen@v0.1.0", "```", "<!-- install:end -->")
	h, missing := readHomes(kb, readme)
	if missing != nil || h.gen != "paths=./api/... output:dir=./internal/patchers" || h.lint != "lint-status: statuspatch-lint\n\t\"$(STATUSPATCH_LINT)\" ./...\n\n\techo done" ||
		!slices.Equal(h.install, []string{"GOBIN=$PWD/bin go install github.com/statuspatch/statuspatch/cmd/statuspatch-gen@v0.1.0"}) {
		t.Fatalf("readHomes = %+v, %q", h, missing)
	}
	// The homes themselves are no problem.
	for _, p := range []page{kb, readme} {
		if got := h.routes(p); got != nil {
			t.Errorf("routes(%s) = %q", p.path, got)
		}
	}
	p := sample("docs/x.md",
		"run `statuspatch-gen paths=./api/... output:dir=./internal/patchers` # the same", // 1: ok
		"bin/statuspatch-gen paths=./api/v1/...",                                          // 2: another
		"lint-status: statuspatch-lint", "\t\"$(STATUSPATCH_LINT)\" ./...",                // 3: the target cut short
		"go install github.com/statuspatch/statuspatch/cmd/statuspatch-gen@v0.1.0",  // 5: ok
		"go install github.com/statuspatch/statuspatch/cmd/statuspatch-lint@v0.1.0", // 6: not the home's
		"go get github.com/statuspatch/statuspatch@latest")                          // 7
	got := h.routes(p)
	for i, want := range []string{"docs/x.md:2: a statuspatch-gen line other", "docs/x.md:3: a lint-status target other", "docs/x.md:6: 'go install github.com/statuspatch/statuspatch/cmd/statuspatch-lint@v0.1.0' is not a line", "docs/x.md:7: installs a statuspatch module @latest"} {
		if i >= len(got) || !strings.HasPrefix(got[i], want) {
			t.Errorf("routes: problem %d is not %q: %q", i, want, got)
		}
	}
	if len(got) != 4 {
		t.Errorf("routes = %q, want 4 problems", got)
	}
	if _, missing := readHomes(sample("docs/kubebuilder.md"), readme); len(missing) != 2 {
		t.Errorf("readHomes without a makefile block: %q, want both homes missing", missing)
	}
}
