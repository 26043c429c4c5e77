package main

import (
	"fmt"
	"io/fs"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"golang.org/x/mod/modfile"

	"github.com/statuspatch/statuspatch/hack/internal/lines"
)

// notLines are versions of the kinds tokens finds that are not lines of
// statuspatch: in FILE, on a line holding TEXT, every version is allowed,
// for the reason given. An entry no line uses fails the test.
var notLines = []struct{ file, text, why string }{
	{"Makefile", "CONTROLLER_GEN_VERSION := v0.23.0", "controller-tools' version"},
	{"Makefile", "fixed in Go 1.27 only", "the Go release that fixes a go command bug"},
	{"hack/migrate-operator.sh", "v2.5.2 is on", "a real operator's own pins"},
	{"hack/migrate-operator.sh", "v0.20.4): controller-runtime v0.23.3, k8s.io v0.35.4, go 1.25", "a real operator's own pins"},
	{"hack/migrate-operator.sh", "1c484f91df846970e72b0344cca86c5c98845ea8; controller-runtime v0.23.3", "a real operator's own pins"},
	{"hack/migrate-operator.sh", "k8s.io v0.35.0, go 1.25.3): Memcached", "a real operator's own pins"},
	{"hack/migrate-operator.sh", "controller-runtime v0.23.1, k8s.io v0.35.3, go 1.25.9", "a real operator's own pins (cybozu-go/accurate)"},
	{"hack/migrate-operator.sh", "controller-runtime v0.24.1, k8s.io v0.36.3, go 1.26.0", "a real operator's own pins (kubernetes-sigs/lws)"},
	{"hack/migrate-operator.sh", "controller-runtime v0.24.1, k8s.io v0.36.1, go 1.26.6): not a", "a real operator's own pins (kubernetes-sigs/karpenter)"},
	{"hack/migrate-operator.sh", "controller-runtime v0.24.1, k8s.io v0.36.4, go 1.26.0): not a", "a real operator's own pins (cert-manager/trust-manager)"},
	{"hack/migrate-operator.sh", "controller-runtime v0.24.1, k8s.io v0.36.3, go 1.26.0): kubebuilder", "a real operator's own pins (kubernetes-sigs/jobset)"},
	{"docs/compatibility.md", "controller-tools v0.23.0", "controller-tools' version"},
	{"README.md", "controller-tools v0.23.0, k8s.io/apimachinery and", "controller-tools' version"},
	{"docs/kubebuilder.md", "v0.23.0): your go.mod and go.sum don't change", "controller-tools' version"},
	{"docs/kubebuilder.md", "| controller-tools | v0.23.0 |", "controller-tools' version"},
	{"docs/kubebuilder.md", "with controller-tools v0.23.0 whatever", "controller-tools' version"},
	{"docs/kubebuilder.md", "/src/bin/k8s/1.33.0-linux-amd64", "a folder in a quoted error message"},
	{"docs/kubebuilder.md", "v0.23.3, k8s.io v0.35.0, go 1.25.3), 2026-11-24", "a real operator's own pins"},
}

// docsOfLines may name the table's versions, and only those: the matrix's
// page, the README and docs/kubebuilder.md (the newcomer route's steps).
var docsOfLines = []string{"docs/compatibility.md", "README.md", "docs/kubebuilder.md"}

// scanned are the files that must name no line (they read hack/lines.txt):
// the Makefile, CI, and hack/'s scripts, programs and README, but for the
// table, its reader and the matrix's go.mod files (and .bench/, make
// bench's results, which name the Go that ran them).
func scanned(t *testing.T) []string {
	files := []string{"Makefile", ".ci/run", ".ci/steps.mk", ".ci/step", ".ci/cpu.sh"}
	err := filepath.WalkDir(filepath.Join(root, "hack"), func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		rel = filepath.ToSlash(rel)
		switch {
		case d.IsDir() && (rel == "hack/lines" || rel == "hack/internal/lines" || rel == "hack/compat" || d.Name() == "testdata" || d.Name() == ".bench"):
			return filepath.SkipDir
		case !d.IsDir() && (strings.HasSuffix(rel, ".sh") || strings.HasSuffix(rel, ".go") || strings.HasSuffix(rel, ".md")):
			files = append(files, rel)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}

// TestNoLineOutsideTheTable: the Makefile, CI and hack/'s files name no
// line (they ask hack/lines.sh), and docsOfLines name only the table's. Go 1.NN of go.work's go line is this repository's own Go (the
// tools'), not a line: anyone may say it.
func TestNoLineOutsideTheTable(t *testing.T) {
	tab := table(t)
	wf, err := modfile.ParseWork("go.work", []byte(read(t, "go.work")), nil)
	if err != nil {
		t.Fatal(err)
	}
	work := wf.Go.Version
	own := map[string]bool{work: true, work[:strings.LastIndex(work, ".")]: true}
	vocab := map[token]bool{}
	for _, l := range tab.Lines {
		vocab[token{"mod", l.Name}] = true
		vocab[token{"mod", l.CR}] = true
		vocab[token{"go", l.GoMinor()}] = true
		vocab[token{"go", l.GoLine()}] = true
		vocab[token{"go", strings.TrimPrefix(l.Toolchain, "go")}] = true
		if !l.Has(lines.Below) {
			vocab[token{"mod", l.K8s}] = true
			vocab[token{"mod", l.K8sMinor()}] = true
			vocab[token{"k8s", l.Envtest}] = true
			vocab[token{"k8s", l.Envtest + ".x"}] = true
			vocab[token{"k8s", l.Release()}] = true
		}
	}
	used := make([]bool, len(notLines))
	check := func(file string, allowed func(token) bool, what string) {
		for i, line := range strings.Split(read(t, file), "\n") {
			exempt := false
			for j, n := range notLines {
				if n.file == file && strings.Contains(line, n.text) {
					exempt, used[j] = true, true
				}
			}
			for _, tok := range tokens(line) {
				if exempt || tok.kind == "go" && own[tok.value] || allowed(tok) {
					continue
				}
				t.Errorf("%s:%d: names %s: %s", file, i+1, tok.value, what)
			}
		}
	}
	for _, file := range scanned(t) {
		check(file, func(token) bool { return false }, "read it from hack/lines.txt (hack/lines.sh) instead, or add it to notLines saying why it is not a line")
	}
	for _, doc := range docsOfLines {
		check(doc, func(tok token) bool { return vocab[tok] }, fmt.Sprintf("not a version of hack/lines.txt's lines (%s), or add it to notLines saying why it is not a line", strings.Join(tab.Names(), " ")))
	}
	for j, n := range notLines {
		if !used[j] {
			t.Errorf("notLines: no line of %s holds %q any more: remove the entry", n.file, n.text)
		}
	}
}

// rangeOf is a doc's "controller-runtime vA to vB" or "k8s.io vA to vB".
var rangeOf = regexp.MustCompile(`(controller-runtime|k8s\.io) (v0\.[0-9]+) to (v0\.[0-9]+)`)

// TestSupportedRanges: every range of supported lines docsOfLines state is
// the table's, oldest to newest.
func TestSupportedRanges(t *testing.T) {
	sup := table(t).Supported()
	first, last := sup[0], sup[len(sup)-1]
	want := map[string]string{
		"controller-runtime": first.Name + " to " + last.Name,
		"k8s.io":             first.K8sMinor() + " to " + last.K8sMinor(),
	}
	n := 0
	for _, doc := range docsOfLines {
		flat := strings.Join(strings.Fields(read(t, doc)), " ")
		for _, m := range rangeOf.FindAllStringSubmatch(flat, -1) {
			n++
			if got := m[2] + " to " + m[3]; got != want[m[1]] {
				t.Errorf("%s says %s %s; hack/lines.txt's supported lines are %s %s", doc, m[1], got, m[1], want[m[1]])
			}
		}
	}
	if n == 0 {
		t.Errorf("no doc of %q states the supported range: is rangeOf still the docs' wording?", docsOfLines)
	}
}
