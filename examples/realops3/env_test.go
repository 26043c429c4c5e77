// Package realops3 explores an open-source operator whose module asks for
// a newer controller-runtime line than examples/realops and realops2 pin
// (openshift/cluster-autoscaler-operator, at controller-runtime v0.23),
// with testenv's full API and the explorer
// (docs/explore-your-operator.md). It is its own module, outside go.work
// and make test.
package realops3

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/go-logr/logr"
	corev1 "k8s.io/api/core/v1"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	clientgoscheme "k8s.io/client-go/kubernetes/scheme"
	"k8s.io/klog/v2"
	ctrllog "sigs.k8s.io/controller-runtime/pkg/log"
	"sigs.k8s.io/yaml"

	"github.com/statuspatch/statuspatch/testenv"
)

// TestMain silences controller-runtime's logger and klog, which the
// operator logs through.
func TestMain(m *testing.M) {
	ctrllog.SetLogger(logr.Discard())
	klog.SetLogger(logr.Discard())
	os.Exit(m.Run())
}

// crdFile is a CRD of module's, at path in the module cache.
type crdFile struct{ module, path string }

// start runs the full API (kube-apiserver against testenv's etcd: the
// operator owns built-in kinds) with the CRDs of files, a scheme of
// client-go's kinds plus addToScheme's, and namespace ns. It skips
// without a kube-apiserver (make testenv-assets builds one) unless
// STATUSPATCH_REQUIRE_FULLAPI=1.
func start(t *testing.T, ns string, addToScheme func(*runtime.Scheme) error, files ...crdFile) *testenv.Env {
	t.Helper()
	if _, _, err := testenv.KubeAPIServerPath(); err != nil {
		if os.Getenv("STATUSPATCH_REQUIRE_FULLAPI") == "1" {
			t.Fatalf("STATUSPATCH_REQUIRE_FULLAPI=1 and no kube-apiserver: %v", err)
		}
		t.Skipf("skipping: exploring an operator that owns built-in kinds needs the full API: %v", err)
	}
	scheme := runtime.NewScheme()
	if err := errors.Join(clientgoscheme.AddToScheme(scheme), addToScheme(scheme)); err != nil {
		t.Fatalf("scheme: %v", err)
	}
	var crds []*apiextensionsv1.CustomResourceDefinition
	for _, f := range files {
		path := filepath.Join(moduleDir(t, f.module), f.path)
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		crd := &apiextensionsv1.CustomResourceDefinition{}
		if err := yaml.Unmarshal(b, crd); err != nil {
			t.Fatalf("CRD %s: %v", path, err)
		}
		crds = append(crds, crd)
	}
	env := testenv.Start(t, testenv.WithFullAPI(), testenv.WithScheme(scheme), testenv.WithTimeout(10*time.Minute), // a loaded machine
		testenv.WithCRDs(crds...))
	if err := env.Client.Create(t.Context(), &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: ns}}); err != nil {
		t.Fatal(err)
	}
	return env
}

// moduleDir is module's directory in the module cache, at the version this
// module's go.mod pins.
func moduleDir(t *testing.T, module string) string {
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
		t.Fatalf("go list -m %s: no directory (run go mod download in examples/realops3)", module)
	}
	return dir
}
