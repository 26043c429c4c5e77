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
// requiring controller-runtime and k8s.io there, no replace directive)
// adds the explorer as docs/explore-your-operator.md says, from a module
// proxy of this checkout as published (go get, then go mod tidy): go list
// -m all's controller-runtime, k8s.io and etcd lines and go.mod's go line
// are what they were.
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
	write(t, filepath.Join(op, "internal", "controller", "controller.go"), controllerGo)
	goCmd("mod", "tidy")
	before, goBefore := goCmd("list", "-m", "all"), goLine(t, op)

	goCmd("get", explorer+"@"+proxy.Version)
	write(t, filepath.Join(op, "internal", "controller", "explore_test.go"), exploreTestGo)
	goCmd("mod", "tidy")
	after, goAfter := goCmd("list", "-m", "all"), goLine(t, op)
	goCmd("vet", "./...")

	if b, a := pinnedLines(before), pinnedLines(after); !slices.Equal(b, a) {
		t.Errorf("adding the explorer moved pins: controller-runtime, k8s.io and etcd in go list -m all\nbefore: %q\nafter:  %q", b, a)
	}
	if goBefore != goAfter {
		t.Errorf("adding the explorer changed go.mod's go/toolchain lines: %q, they were %q", goAfter, goBefore)
	}
	if !strings.Contains(after, explorer+" ") {
		t.Errorf("go list -m all has no module %s after adding it", explorer)
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

// controllerGo is the operator's reconciler, under internal/.
const controllerGo = `package controller

import (
	"context"

	corev1 "k8s.io/api/core/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

type Reconciler struct{ client.Client }

func (r *Reconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	cm := &corev1.ConfigMap{}
	return ctrl.Result{}, client.IgnoreNotFound(r.Get(ctx, req.NamespacedName, cm))
}

func (r *Reconciler) SetupWithManager(mgr ctrl.Manager) error {
	return ctrl.NewControllerManagedBy(mgr).For(&corev1.ConfigMap{}).Complete(r)
}
`

// exploreTestGo is the explorer test inside the operator's module, on a
// client of an API server of its own process (its envtest suite's).
const exploreTestGo = `package controller

import (
	"testing"

	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/statuspatch/statuspatch/testenv/explore"
)

var k8sClient client.Client // the envtest suite's

func TestExplore(t *testing.T) {
	if k8sClient == nil {
		t.Skip("no envtest suite")
	}
	explore.Check(t, explore.Scenario{}, explore.Options{Backend: explore.Server(explore.Remote(k8sClient))})
}
`

func write(t *testing.T, path, data string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
}
