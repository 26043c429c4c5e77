// Package explorepins tests the explorer's promise to an operator whose
// reconcilers are under internal/, so that its explorer test must live in
// the operator's own module (docs/explore-your-operator.md, Reconcilers
// under internal/): adding the explorer to that module moves no pin.
// Before issue 73 the explorer's package was part of the testenv module,
// whose API server (apiserver, etcd, ...) came with it: 31 modules added,
// etcd moved, go mod tidy failing.
package explorepins

import (
	"bufio"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/statuspatch/statuspatch/hack/installroute"
	"github.com/statuspatch/statuspatch/hack/internal/lines"
	"github.com/statuspatch/statuspatch/hack/internal/releaseproxy"
)

// explorer is the module the operator adds.
const explorer = releaseproxy.Module + "/testenv/explore"

// pinned says whether adding the explorer may not add, drop or move the
// module path's line of go list -m all.
func pinned(path string) bool {
	return path == "sigs.k8s.io/controller-runtime" || strings.HasPrefix(path, "k8s.io/") ||
		strings.HasPrefix(path, "go.etcd.io/")
}

// TestExplorerMovesNoPin: a scratch operator at the floor line (go.mod
// requiring controller-runtime and k8s.io there, no replace directive; a
// reconciler under internal/ and an envtest suite) adds the explorer as
// docs/explore-your-operator.md says, from a module proxy of this
// checkout as published (go get, then go mod tidy): go list -m all's
// controller-runtime, k8s.io and etcd lines and go.mod's go line are what
// they were, go.mod requires none of them anew, and its added lines are
// the page's. Before issue 73 (the explorer a package of testenv), go.mod
// gained 60 requirements, etcd's and k8s.io/apiserver's among them, and
// go list -m all go.etcd.io/gofail.
func TestExplorerMovesNoPin(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: builds a module proxy of the checkout")
	}
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	table, err := lines.ReadFile(filepath.Join(root, "hack", "lines.txt"))
	if err != nil {
		t.Fatal(err)
	}
	floor, ok := table.Role("floor")
	if !ok {
		t.Fatal("hack/lines.txt has no floor line")
	}
	proxy, err := installroute.OpenProxy(root, "", t.TempDir(), io.Discard, os.Stderr)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := proxy.Close(); err != nil {
			t.Error(err)
		}
	})
	env := os.Environ()
	for _, s := range proxy.Settings {
		env = append(env, s.Key+"="+s.Value)
	}
	op := t.TempDir()
	goCmd := func(args ...string) string {
		t.Helper()
		cmd := exec.Command("go", args...)
		cmd.Dir, cmd.Env = op, env
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("go %s: %v\n%s", strings.Join(args, " "), err, out)
		}
		return string(out)
	}
	write(t, filepath.Join(op, "go.mod"), operatorGoMod(floor))
	copyOperator(t, op, false)
	goCmd("mod", "tidy")
	before, goBefore := goCmd("list", "-m", "all"), goLine(t, op)
	modBefore := read(t, filepath.Join(op, "go.mod"))

	goCmd("get", explorer+"@"+proxy.Version)
	copyOperator(t, op, true)
	goCmd("mod", "tidy")
	after, goAfter := goCmd("list", "-m", "all"), goLine(t, op)
	modAfter := read(t, filepath.Join(op, "go.mod"))
	added := addedLines(modBefore, modAfter)

	if b, a := pinnedLines(before), pinnedLines(after); !slices.Equal(b, a) {
		t.Errorf("adding the explorer moved pins: controller-runtime, k8s.io and etcd in go list -m all\nbefore: %q\nafter:  %q", b, a)
	}
	for _, l := range added {
		if f := strings.Fields(l); len(f) > 1 && pinned(f[0]) {
			t.Errorf("adding the explorer changed go.mod's requirement of %s: %s", f[0], l)
		}
	}
	if goBefore != goAfter {
		t.Errorf("adding the explorer changed go.mod's go/toolchain lines: %q, they were %q", goAfter, goBefore)
	}
	if !strings.Contains(after, explorer+" ") {
		t.Errorf("go list -m all has no module %s after adding it", explorer)
	}
	t.Logf("go.mod: added %q", added)
	checkDoc(t, root, added, proxy.Version)
	goCmd("vet", "./...") // the test compiles
	if os.Getenv("STATUSPATCH_EXPLOREPINS_COLD") == "1" {
		coldFirstSchedule(t, op, env)
	}
	t.Logf("go list -m all: %d modules before, %d after", strings.Count(before, "\n"), strings.Count(after, "\n"))
}

// pinnedLines are list's lines of pinned modules.
func pinnedLines(list string) []string {
	var out []string
	sc := bufio.NewScanner(strings.NewReader(list))
	for sc.Scan() {
		if f := strings.Fields(sc.Text()); len(f) > 0 && pinned(f[0]) {
			out = append(out, sc.Text())
		}
	}
	return out
}

// goLine is the go and toolchain lines of dir's go.mod.
func goLine(t *testing.T, dir string) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(dir, "go.mod"))
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for line := range strings.Lines(string(data)) {
		if strings.HasPrefix(line, "go ") || strings.HasPrefix(line, "toolchain ") {
			out = append(out, strings.TrimSpace(line))
		}
	}
	return strings.Join(out, "; ")
}

// operatorGoMod is the operator's go.mod at line l.
func operatorGoMod(l lines.Line) string {
	var b strings.Builder
	b.WriteString("module example.com/operator\n\ngo " + l.GoLine() + "\n\nrequire (\n")
	for _, p := range []string{"api", "apimachinery", "client-go"} {
		b.WriteString("\tk8s.io/" + p + " " + l.K8s + "\n")
	}
	b.WriteString("\tsigs.k8s.io/controller-runtime " + l.CR + "\n)\n")
	return b.String()
}

// operator is the scratch operator's Go files, reconciler under
// internal/ and envtest suite: testdata/operator, copied; its explorer
// test, explore_test.go, is copied in after the go get (docPage shows it
// whole: hack/docpages checks it).
const operator = "testdata/operator"

// exploreTest is the explorer test inside the operator's module.
const exploreTest = "internal/controller/explore_test.go"

// copyOperator copies testdata/operator's files but exploreTest (all of
// them with it) into dir.
func copyOperator(t *testing.T, dir string, withExplore bool) {
	t.Helper()
	err := filepath.WalkDir(operator, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, err := filepath.Rel(operator, p)
		if err != nil {
			return err
		}
		if filepath.ToSlash(rel) == exploreTest && !withExplore {
			return nil
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		write(t, filepath.Join(dir, rel), string(data))
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

func write(t *testing.T, path, data string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
}

func read(t *testing.T, path string) string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// addedLines are the lines of after that before does not have, trimmed.
func addedLines(before, after string) []string {
	had := map[string]bool{}
	for line := range strings.Lines(before) {
		had[strings.TrimSpace(line)] = true
	}
	var out []string
	for line := range strings.Lines(after) {
		if l := strings.TrimSpace(line); l != "" && !had[l] {
			out = append(out, l)
		}
	}
	return out
}

// docPage is the page that shows the go.mod change whole.
const docPage = "docs/explore-your-operator.md"

// checkDoc: docPage's go.mod block of the section for reconcilers under
// internal/ (the one naming the explorer's module) adds exactly the lines
// go get and go mod tidy added, the version aside.
func checkDoc(t *testing.T, root string, added []string, version string) {
	t.Helper()
	page := read(t, filepath.Join(root, docPage))
	const open = "```diff\n"
	var block string
	for rest := page; ; {
		i := strings.Index(rest, open)
		if i < 0 {
			break
		}
		rest = rest[i+len(open):]
		end := strings.Index(rest, "```")
		if end < 0 {
			break
		}
		if strings.Contains(rest[:end], explorer) {
			block = rest[:end]
			break
		}
		rest = rest[end:]
	}
	if block == "" {
		t.Fatalf("%s has no diff block naming %s", docPage, explorer)
	}
	var doc []string
	for line := range strings.Lines(block) {
		if l, ok := strings.CutPrefix(line, "+"); ok {
			doc = append(doc, strings.TrimSpace(l))
		}
	}
	want := slices.Clone(added)
	for i, l := range want {
		want[i] = strings.Replace(l, " "+version, " VERSION", 1)
	}
	for i, l := range doc {
		if strings.HasPrefix(l, explorer+" ") {
			doc[i] = explorer + " VERSION"
		}
	}
	if !slices.Equal(doc, want) {
		t.Errorf("%s's go.mod diff adds %q; go get and go mod tidy added %q (the explorer's version as VERSION)", docPage, doc, want)
	}
}

// coldFirstSchedule times the operator's explorer test with an empty
// build cache (the module cache as it is): its compile and link, then,
// where KUBEBUILDER_ASSETS names envtest's binaries, envtest's start and
// the schedules (docs/benchmarks.md, The cold path to the first schedule
// in an operator's module):
//
//	STATUSPATCH_EXPLOREPINS_COLD=1 KUBEBUILDER_ASSETS=$(make -s testenv-assets TESTENV_ASSETS_FLAGS=--etcd) \
//	  go test -count=1 -v -run TestExplorerMovesNoPin ./explorepins/
func coldFirstSchedule(t *testing.T, op string, env []string) {
	t.Helper()
	run := func(cacheDir string, args ...string) (string, time.Duration, time.Duration) {
		cmd := exec.Command("go", args...)
		cmd.Dir, cmd.Env = op, append(slices.Clone(env), "GOCACHE="+cacheDir)
		start := time.Now()
		out, err := cmd.CombinedOutput()
		wall := time.Since(start)
		if err != nil {
			t.Fatalf("go %s: %v\n%s", strings.Join(args, " "), err, out)
		}
		return string(out), wall, cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()
	}
	cache := t.TempDir()
	list, _, _ := run(cache, "list", "-deps", "-test", "./internal/controller/")
	out, wall, cpu := run(t.TempDir(), "test", "-count=1", "-v", "-run", "TestExploreConfigMaps", "./internal/controller/")
	t.Logf("cold go test -run TestExploreConfigMaps: %d packages, wall %s, CPU %s\n%s",
		strings.Count(list, "\n"), wall.Round(time.Second), cpu.Round(time.Second), out)
}
