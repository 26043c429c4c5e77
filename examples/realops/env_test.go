// Package realops explores real open-source operators, taken as modules at
// pinned versions, with testenv's full API and the explorer
// (docs/explore-your-operator.md). It is its own module, outside go.work and
// make test: make explore-operators runs it.
package realops

import (
	"errors"
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
// through (and which prints a stack when nothing is set).
func TestMain(m *testing.M) {
	ctrllog.SetLogger(logr.Discard())
	os.Exit(m.Run())
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
