package scaffold

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"testing"
)

// TestInitSaysChanges: init says each change to what the scaffold chose
// (kubebuilder v4.15's: setup-envtest, golangci-lint v2.12.2, logcheck,
// .custom-gcl.yml): with -dry-run before the diff; without, after what it
// wrote and the one next command, which lead; a second run, which changes
// nothing, says none.
func TestInitSaysChanges(t *testing.T) {
	want := []string{
		"Makefile: setup-envtest becomes testenv-assets",
		"ENVTEST_VERSION (setup-envtest's version) is removed, as nothing reads it",
		"Makefile: golangci-lint v2.12.2 becomes statuspatch's golangci-lint " + pluginGolangciVersion + " build",
		"GOLANGCI_LINT_VERSION (the scaffold's golangci-lint version) is removed, as nothing reads it",
		".golangci.yml: linter logcheck is not in that build; statuspatch takes its place",
		".custom-gcl.yml: removed",
	}
	dir := t.TempDir()
	copyTree(t, filepath.Join("testdata", "init", "v4.15", "before"), dir, nil)
	for _, dry := range []bool{true, false} {
		args := append([]string{}, initArgs...)
		if dry {
			args = append(args, "-dry-run")
		}
		var out bytes.Buffer
		if err := RunInit(append(args, dir), &out, &out); err != nil {
			t.Fatalf("%v\n%s", err, out.String())
		}
		notes := out.String()[:strings.Index(out.String(), "\n--- ")+1]
		if !dry {
			next := strings.Index(out.String(), "statuspatch-gen init: next: make generate")
			if lead := strings.TrimPrefix(out.String(), "statuspatch-gen init: "); next < 0 || !strings.HasPrefix(lead, "wrote ") && !strings.HasPrefix(lead, "removed ") {
				t.Errorf("init does not lead with what it wrote, then the next command:\n%s", out.String())
			}
			notes = out.String()[max(next, 0):]
		}
		for _, w := range want {
			if !strings.Contains(notes, w) {
				t.Errorf("-dry-run=%v: init does not say %q (before the diff, or after the next command):\n%s", dry, w, out.String())
			}
		}
	}
	var out bytes.Buffer
	if err := RunInit(append(append([]string{}, initArgs...), dir), &out, &out); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(out.String(), "becomes") {
		t.Errorf("the second run, which changes nothing, says a change:\n%s", out.String())
	}
}

// TestInitNotesInDocs: docs/kubebuilder.md quotes what init says on
// kubebuilder v4.15's scaffold (testdata/init/v4.15/before, kubebuilder's
// own sample, with webhooks) and on one without webhooks
// (testdata/init/v4.15-no-webhooks/before, whose suite moves to testenv).
func TestInitNotesInDocs(t *testing.T) {
	doc, err := readDoc(t, "kubebuilder.md")
	if err != nil {
		t.Fatal(err)
	}
	for block, golden := range map[string]string{"init-notes": "v4.15", "init-notes-no-webhooks": "v4.15-no-webhooks"} {
		m := regexp.MustCompile("(?s)<!-- " + block + ":begin -->\n```\n(.*?)```\n<!-- " + block + ":end -->").FindSubmatch(doc)
		if m == nil {
			t.Fatalf("docs/kubebuilder.md has no %s:begin ... %s:end block", block, block)
		}
		edits, notes, err := planInit(filepath.Join("testdata", "init", golden, "before"), "v0.1.0")
		if err != nil || len(edits) == 0 {
			t.Fatal(err)
		}
		if got := strings.Join(notes, "\n") + "\n"; string(m[1]) != got {
			t.Errorf("docs/kubebuilder.md's %s block is not what init says on testdata/init/%s; want:\n%s", block, golden, got)
		}
	}
}

// TestPluginGolangciVersion: the version init names for statuspatch's
// golangci-lint build is the one hack/golangci-plugin/go.mod builds.
func TestPluginGolangciVersion(t *testing.T) {
	b, err := os.ReadFile(filepath.Join(repoRoot(t), "hack", "golangci-plugin", "go.mod"))
	if err != nil {
		t.Fatal(err)
	}
	if v, ok := requiredVersion(string(b), "github.com/golangci/golangci-lint/v2"); !ok || v != pluginGolangciVersion {
		t.Errorf("hack/golangci-plugin/go.mod requires golangci-lint %q, init says %s", v, pluginGolangciVersion)
	}
}

// TestDropUnusedVars: a version variable nothing reads goes, with its
// continuation lines and the comment naming it, leaving no run of blank
// lines; one still read stays.
func TestDropUnusedVars(t *testing.T) {
	in := "A ?= 1\n\n#OLD is setup-envtest's version\nOLD ?= $(shell x; \\\n  y)\n\nUSED ?= v1\nGONE = v2\nall:\n\techo $(USED) ${A}\n"
	want := "A ?= 1\n\nUSED ?= v1\nall:\n\techo $(USED) ${A}\n"
	if got := dropUnusedVars(in, "OLD", "USED", "GONE", "A"); got != want {
		t.Errorf("dropUnusedVars:\n%s\nwant:\n%s", got, want)
	}
}

// TestInitEnvtestWhereSuiteLooks: after init, make test (and, where the
// scaffold has it, make setup-envtest) links testenv-assets' binaries into
// bin/k8s/<version>-<os>-<arch>, a directory, where kubebuilder's
// suite_test.go looks when go test runs without make (it takes the first
// directory in bin/k8s; v4.0's names the version's), and exports that
// folder as KUBEBUILDER_ASSETS. testenv-assets is stood in by a script
// printing a cache folder, as testenv-assets use -p path does.
func TestInitEnvtestWhereSuiteLooks(t *testing.T) {
	if _, err := exec.LookPath("make"); err != nil {
		t.Skip("no make")
	}
	for _, c := range []string{"v4.0", "v4.3", "v4.15"} {
		t.Run(c, func(t *testing.T) {
			dir := t.TempDir()
			copyTree(t, filepath.Join("testdata", "init", c, "before"), dir, nil)
			var out bytes.Buffer
			if err := RunInit(append(append([]string{}, initArgs...), dir), &out, &out); err != nil {
				t.Fatalf("%v\n%s", err, out.String())
			}
			name := fmt.Sprintf("1.35.4-%s-%s", runtime.GOOS, runtime.GOARCH)
			cache := filepath.Join(t.TempDir(), name)
			for _, bin := range []string{"kube-apiserver", "etcd"} {
				writeFile(t, filepath.Join(cache, bin), "#!/bin/sh\n")
				if err := os.Chmod(filepath.Join(cache, bin), 0o755); err != nil {
					t.Fatal(err)
				}
			}
			fake := filepath.Join(t.TempDir(), "testenv-assets")
			writeFile(t, fake, "#!/bin/sh\n[ \"$*\" = 'use --etcd -p path 1.35.4' ] || { echo \"testenv-assets: unexpected $*\" >&2; exit 2; }\necho "+cache+"\n")
			if err := os.Chmod(fake, 0o755); err != nil {
				t.Fatal(err)
			}
			targets := []string{"test"}
			if c == "v4.15" {
				targets = []string{"setup-envtest", "test"}
			}
			for _, target := range targets {
				if err := os.RemoveAll(filepath.Join(dir, "bin", "k8s")); err != nil {
					t.Fatal(err)
				}
				// -n: the recipes are printed, but the test recipe's $(shell)
				// runs; setup-envtest's recipe runs for real (its tool, the
				// fake, is not remade).
				args := []string{"-n", "ENVTEST=" + fake, "ENVTEST_K8S_VERSION=1.35.4", target}
				if target == "setup-envtest" {
					args = []string{"-o", fake, "ENVTEST=" + fake, "ENVTEST_K8S_VERSION=1.35.4", target}
				}
				cmd := exec.Command("make", args...)
				cmd.Dir = dir
				b, err := cmd.CombinedOutput()
				if err != nil {
					t.Fatalf("make %s: %v\n%s", strings.Join(args, " "), err, b)
				}
				linked := filepath.Join(dir, "bin", "k8s", name)
				if target == "test" && !bytes.Contains(b, []byte(`KUBEBUILDER_ASSETS="`+linked+`" go test`)) {
					t.Errorf("make -n test does not export KUBEBUILDER_ASSETS=%s:\n%s", linked, b)
				}
				entries, err := os.ReadDir(filepath.Join(dir, "bin", "k8s"))
				if err != nil || len(entries) != 1 || !entries[0].IsDir() || entries[0].Name() != name {
					t.Fatalf("make %s: bin/k8s holds %v (%v), want one directory %s", target, entries, err, name)
				}
				for _, bin := range []string{"kube-apiserver", "etcd"} {
					if st, err := os.Stat(filepath.Join(linked, bin)); err != nil || st.Mode().Perm()&0o111 == 0 {
						t.Errorf("make %s: bin/k8s/%s/%s: %v, want the executable from the cache", target, name, bin, err)
					}
				}
			}
		})
	}
}

// TestInitNotesShort: each note init prints on the goldens' scaffolds
// (testdata/init/*/dry-run.diff, the notes before the diff) is one line
// of at most 70 words, its detail in docs/kubebuilder.md: a newcomer met
// a first note of about 190 words (a kind without a write token) before
// what init had done.
func TestInitNotesShort(t *testing.T) {
	const most = 70
	goldens, err := filepath.Glob(filepath.Join("testdata", "init", "*", "dry-run.diff"))
	if err != nil || len(goldens) == 0 {
		t.Fatalf("no testdata/init/*/dry-run.diff: %v", err)
	}
	for _, g := range goldens {
		b, err := os.ReadFile(g)
		if err != nil {
			t.Fatal(err)
		}
		for _, l := range strings.Split(string(b), "\n") {
			if strings.HasPrefix(l, "--- ") {
				break // the diff
			}
			if n := len(strings.Fields(l)); strings.HasPrefix(l, "statuspatch-gen init: ") && n > most {
				t.Errorf("%s: a note of %d words, more than %d:\n%s", g, n, most, l)
			}
		}
	}
}
