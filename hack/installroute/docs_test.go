package installroute

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

const sampleReadme = "intro\n<!-- install:begin -->\n```sh\n# the runtime\ngo get example.com/x@v0.1.0\n\nGOBIN=$PWD/bin go install example.com/y@v0.1.0\n```\n<!-- install:end -->\n<!-- lint:begin --> (a note)\n```\nbin/lint ./...\n```\n<!-- lint:end -->\n"

func TestBlock(t *testing.T) {
	got, err := readmeBlock(sampleReadme, "install", "v0.1.0")
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"go get example.com/x@v0.1.0", "GOBIN=$PWD/bin go install example.com/y@v0.1.0"}
	if !slices.Equal(got, want) {
		t.Errorf("install block = %q, want %q", got, want)
	}
	if got, _ := readmeBlock(sampleReadme, "lint", "v0.1.0"); !slices.Equal(got, []string{"bin/lint ./..."}) {
		t.Errorf("lint block = %q", got)
	}
	if _, err := readmeBlock(sampleReadme, "install", "v0.2.0"); err == nil || !strings.Contains(err.Error(), "does not install v0.2.0") {
		t.Errorf("an install block of another version: %v, want an error naming the version", err)
	}
	if got := goGets(sampleReadme); !slices.Equal(got, want[:1]) {
		t.Errorf("goGets = %q, want %q", got, want[:1])
	}
	if _, err := readmeBlock(sampleReadme, "missing", "v0.1.0"); err == nil || !strings.Contains(err.Error(), "<!-- missing:begin -->") {
		t.Errorf("a missing block: %v, want an error naming its marker", err)
	}
}

func TestMakefileBlockKeepsComments(t *testing.T) {
	md := "x\n<!-- makefile:begin -->\n```make\n# statuspatch\nSTATUSPATCH_VERSION ?= v0.1.0\ngenerate: statuspatch-gen\n\t$(X)\n```\n<!-- makefile:end -->\n"
	got, err := makefileBlock(md)
	if err != nil {
		t.Fatal(err)
	}
	if want := "# statuspatch\nSTATUSPATCH_VERSION ?= v0.1.0\ngenerate: statuspatch-gen\n\t$(X)\n"; got != want {
		t.Errorf("makefile block = %q, want %q", got, want)
	}
	if _, err := makefileBlock("none"); err == nil {
		t.Error("no makefile block: no error")
	}
}

func TestFixCommand(t *testing.T) {
	got, err := fixCommand("run `\"$(STATUSPATCH_LINT)\" -fix ./...` then", "bin/statuspatch-lint")
	if err != nil || got != "bin/statuspatch-lint -fix ./..." {
		t.Errorf("fixCommand = %q, %v", got, err)
	}
	if _, err := fixCommand("no line", "bin/x"); err == nil {
		t.Error("no -fix line: no error")
	}
}

func TestGolangciWiring(t *testing.T) {
	md := "### In kubebuilder\n\n1. Replace:\n\n   ```make\n   GOLANGCI_LINT = $(LOCALBIN)/golangci-plugin\n   go run ./hack/golangci-plugin\n   ```\n\n### Other ways\n\n   ```make\n   other\n   ```\n"
	got, err := golangciWiring(md)
	if err != nil {
		t.Fatal(err)
	}
	if want := "GOLANGCI_LINT = $(LOCALBIN)/golangci-plugin\ngo run ./hack/golangci-plugin\n"; got != want {
		t.Errorf("wiring = %q, want %q (the block after Other ways is not the wiring)", got, want)
	}
	if _, err := golangciWiring(strings.ReplaceAll(md, "golangci-plugin", "x")); err == nil {
		t.Error("wiring without hack/golangci-plugin: no error")
	}
}

// TestTheDocsHoldWhatTheRouteRuns reads this repository's docs: every
// block and line the route runs is there, so a doc edited out from under
// the route fails here, in seconds, and not minutes into make test-install.
func TestTheDocsHoldWhatTheRouteRuns(t *testing.T) {
	root := filepath.Join("..", "..")
	read := func(name string) string {
		b, err := os.ReadFile(filepath.Join(root, name))
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	version, err := requiredVersion(filepath.Join(root, "testenv", "go.mod"))
	if err != nil {
		t.Fatal(err)
	}
	readme, kb := read("README.md"), read("docs/kubebuilder.md")
	if n := len(goGets(readme)); n < 2 {
		t.Errorf("README.md's install block has %d go get lines, want the runtime's and testenv's", n)
	}
	for _, m := range []string{"install", "lint"} {
		if _, err := readmeBlock(readme, m, version); err != nil {
			t.Error(err)
		}
	}
	mk, err := makefileBlock(kb)
	if err != nil {
		t.Error(err)
	} else if !strings.Contains(mk, "STATUSPATCH_VERSION ?= "+version) {
		t.Errorf("docs/kubebuilder.md's Makefile block does not set STATUSPATCH_VERSION ?= %s", version)
	}
	if _, err := fixCommand(kb, "bin/statuspatch-lint"); err != nil {
		t.Error(err)
	}
	if _, err := golangciWiring(kb); err != nil {
		t.Error(err)
	}
	if _, err := fixBlock(kb); err != nil {
		t.Error(err)
	}
	if l := genInstallLine(readme); !strings.HasSuffix(l, "/cmd/statuspatch-gen@"+version) {
		t.Errorf("README.md's install block's statuspatch-gen line is %q, want one installing %s", l, version)
	}
	if _, err := assetsLine(read("docs/testenv.md")); err != nil {
		t.Error(err)
	}
}
