// Package realops explores real open-source operators, taken as modules at
// pinned versions, with testenv's full API and the explorer
// (docs/explore-your-operator.md). It is its own module, outside go.work and
// make test: make explore-operators runs it.
package realops

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/go-logr/logr"
	"k8s.io/apimachinery/pkg/runtime"
	clientgoscheme "k8s.io/client-go/kubernetes/scheme"
	ctrllog "sigs.k8s.io/controller-runtime/pkg/log"

	"github.com/statuspatch/statuspatch/testenv"
)

// TestMain silences controller-runtime's logger, which the operators log
// through (and which prints a stack when nothing is set), and has the
// kube-apiservers the tests start collect as testenv-server's do.
func TestMain(m *testing.M) {
	ctrllog.SetLogger(logr.Discard())
	if err := serverGC(os.Getenv, os.Setenv); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	os.Exit(m.Run())
}

// A schedule waits on kube-apiserver's CPU, of which the collector took
// about a quarter at GOGC=100 (docs/benchmarks.md, "what a schedule
// waits on"). testenv.Start runs kube-apiserver as a child of this
// process, with this process's environment: serverGC sets GOGC=400 and a
// 1 GiB GOMEMLIMIT there, as testenv-server does for its own
// kube-apiserver (testenv/cmd/testenv-server/gc.go), each unless already
// set. This process's own collector is not changed: Go reads GOGC when a
// process starts.
func serverGC(getenv func(string) string, setenv func(string, string) error) error {
	for _, kv := range [][2]string{{"GOGC", "400"}, {"GOMEMLIMIT", "1073741824"}} {
		if getenv(kv[0]) != "" {
			continue
		}
		if err := setenv(kv[0], kv[1]); err != nil {
			return fmt.Errorf("realops: setting %s=%s for kube-apiserver: %w", kv[0], kv[1], err)
		}
	}
	return nil
}

// start runs the full API (kube-apiserver against testenv's etcd: the
// operators own built-in kinds) with the CRDs of module's config/crd/bases
// in the module cache, and a scheme of client-go's kinds plus addToScheme's.
// It skips without a kube-apiserver (make testenv-assets builds one) unless
// STATUSPATCH_REQUIRE_FULLAPI=1.
func start(t testing.TB, module string, addToScheme func(*runtime.Scheme) error) *testenv.Env {
	t.Helper()
	return startWith(t, module, addToScheme, func() testenv.Option {
		return testenv.WithCRDDirectory(filepath.Join(moduleDir(t, module), "config", "crd", "bases"))
	})
}

// startWith is start with the CRDs crds gives (a module that keeps them
// elsewhere than config/crd/bases), asked for once the full API is there.
func startWith(t testing.TB, module string, addToScheme func(*runtime.Scheme) error, crds func() testenv.Option) *testenv.Env {
	t.Helper()
	if _, _, err := testenv.KubeAPIServerPath(); err != nil {
		if os.Getenv("STATUSPATCH_REQUIRE_FULLAPI") == "1" {
			t.Fatalf("STATUSPATCH_REQUIRE_FULLAPI=1 and no kube-apiserver: %v", err)
		}
		t.Skipf("skipping: exploring an operator that owns built-in kinds needs the full API: %v", err)
	}
	scheme := runtime.NewScheme()
	if err := errors.Join(clientgoscheme.AddToScheme(scheme), addToScheme(scheme)); err != nil {
		t.Fatalf("scheme for %s: %v", module, err)
	}
	return testenv.Start(t, testenv.WithFullAPI(), testenv.WithScheme(scheme), testenv.WithTimeout(10*time.Minute), // a loaded machine
		crds())
}

// moduleDir is module's directory in the module cache, at the version this
// module's go.mod pins.
func moduleDir(t testing.TB, module string) string {
	t.Helper()
	cmd := exec.Command("go", "list", "-m", "-f", "{{.Dir}}", module)
	cmd.Env = append(os.Environ(), "GOWORK=off") // this module is not in go.work
	out, err := cmd.Output()
	if err != nil {
		var exit *exec.ExitError
		if errors.As(err, &exit) {
			t.Fatalf("go list -m %s: %v: %s", module, err, exit.Stderr)
		}
		t.Fatalf("go list -m %s: %v", module, err)
	}
	dir := strings.TrimSpace(string(out))
	if dir == "" {
		t.Fatalf("go list -m %s: no directory (run go mod download in examples/realops)", module)
	}
	return dir
}
