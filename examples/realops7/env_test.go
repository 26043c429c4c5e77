// Package realops7 explores an open-source operator none of
// examples/realops to realops6 explored: kueue's core controllers
// (sigs.k8s.io/kueue), whose LocalQueue, ClusterQueue, Cohort,
// ResourceFlavor and AdmissionCheck controllers are woken by channel
// sources (events its queue manager, cache and Workload controller push),
// on testenv's full API, with the explorer at the defaults
// (docs/explore-your-operator.md). It is its own module, outside go.work
// and make test: kueue asks for controller-runtime v0.23 and k8s.io v0.35.
package realops7

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
	"k8s.io/klog/v2"
	ctrl "sigs.k8s.io/controller-runtime"
	ctrllog "sigs.k8s.io/controller-runtime/pkg/log"

	kueue "sigs.k8s.io/kueue/apis/kueue/v1beta2"

	"github.com/statuspatch/statuspatch/testenv"
)

// TestMain silences controller-runtime's logger and klog, which the
// operator logs through (ctrl.Log too: kueue logs through it).
func TestMain(m *testing.M) {
	ctrllog.SetLogger(logr.Discard())
	ctrl.SetLogger(logr.Discard())
	klog.SetLogger(logr.Discard())
	os.Exit(m.Run())
}

// start runs the full API (kube-apiserver against testenv's etcd) with
// kueue's CRDs, from config/components/crd/bases in the module cache. It
// skips without a kube-apiserver (make testenv-assets builds one) unless
// STATUSPATCH_REQUIRE_FULLAPI=1 (make explore-operators sets it), which
// fails instead.
func start(t *testing.T) *testenv.Env {
	t.Helper()
	if _, _, err := testenv.KubeAPIServerPath(); err != nil {
		if os.Getenv("STATUSPATCH_REQUIRE_FULLAPI") == "1" {
			t.Fatalf("STATUSPATCH_REQUIRE_FULLAPI=1 and no kube-apiserver: %v", err)
		}
		t.Skipf("skipping: exploring kueue's controllers needs the full API: %v", err)
	}
	scheme := runtime.NewScheme()
	if err := errors.Join(clientgoscheme.AddToScheme(scheme), kueue.AddToScheme(scheme)); err != nil {
		t.Fatalf("scheme: %v", err)
	}
	dir := filepath.Join(moduleDir(t, "sigs.k8s.io/kueue"), "config", "components", "crd", "bases")
	return testenv.Start(t, testenv.WithFullAPI(), testenv.WithScheme(scheme), testenv.WithTimeout(10*time.Minute), // a loaded machine
		testenv.WithCRDDirectory(dir))
}

// moduleDir is module's directory in the module cache, at the version this
// module requires.
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
		t.Fatalf("go list -m %s: no directory (run go mod download in examples/realops7)", module)
	}
	return dir
}
