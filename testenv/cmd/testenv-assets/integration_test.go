package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/client-go/discovery"
	clientgoscheme "k8s.io/client-go/kubernetes/scheme"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/envtest"
)

// EnvBuild turns on TestIntegrationBuildAndStart, which builds for real.
const EnvBuild = "TESTENV_ASSETS_BUILD"

// The real thing: build 1.35.x through the module proxy (or find it in the
// cache; TESTENV_ASSETS_BIN_DIR names another cache folder), then start it
// the way a kubebuilder suite does: KUBEBUILDER_ASSETS and an
// envtest.Environment with CRDDirectoryPaths.
func TestIntegrationBuildAndStart(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: building kube-apiserver and etcd takes minutes")
	}
	if os.Getenv(EnvBuild) != "1" {
		t.Skip(EnvBuild + " is not 1: not building kube-apiserver 1.35.x and etcd from source, which takes minutes the first time " +
			"(then it is cached); run " + EnvBuild + "=1 go test -timeout 60m -run Integration ./cmd/testenv-assets")
	}
	args := []string{"use", "--etcd", "-p", "path", "1.35.x"} // envtest runs etcd too
	if dir := os.Getenv("TESTENV_ASSETS_BIN_DIR"); dir != "" {
		args = append(args, "--bin-dir", dir)
	}
	var stdout bytes.Buffer
	start := time.Now()
	if code := run(t.Context(), args, &stdout, os.Stderr, nil); code != 0 {
		t.Fatalf("testenv-assets %s: exit %d", strings.Join(args, " "), code)
	}
	dir := strings.TrimSuffix(stdout.String(), "\n")
	t.Logf("testenv-assets %s: %s in %s", strings.Join(args, " "), dir, time.Since(start).Round(time.Second))
	if !filepath.IsAbs(dir) || strings.Contains(dir, "\n") || len(missing(dir, wanted(true))) != 0 {
		t.Fatalf("stdout %q is not one folder with kube-apiserver and etcd", stdout.String())
	}

	for name, want := range map[string]string{"kube-apiserver": "Kubernetes v1.35.", "etcd": "etcd Version: 3.6."} {
		out, err := exec.Command(filepath.Join(dir, name), "--version").CombinedOutput()
		if err != nil || !strings.Contains(string(out), want) {
			t.Errorf("%s --version: %v\n%s\nwant %q", name, err, out, want)
		}
	}

	t.Setenv("KUBEBUILDER_ASSETS", dir)
	scheme := runtime.NewScheme()
	if err := clientgoscheme.AddToScheme(scheme); err != nil {
		t.Fatal(err)
	}
	if err := apiextensionsv1.AddToScheme(scheme); err != nil {
		t.Fatal(err)
	}
	env := &envtest.Environment{
		CRDDirectoryPaths:     []string{filepath.Join("..", "..", "internal", "testapi", "crd")},
		ErrorIfCRDPathMissing: true,
		Scheme:                scheme,
	}
	start = time.Now()
	cfg, err := env.Start()
	if err != nil {
		t.Fatalf("envtest on %s: %v", dir, err)
	}
	t.Cleanup(func() {
		if err := env.Stop(); err != nil {
			t.Errorf("stopping envtest: %v", err)
		}
	})
	t.Logf("envtest started on the built assets in %s", time.Since(start).Round(time.Millisecond))

	dc, err := discovery.NewDiscoveryClientForConfig(cfg)
	if err != nil {
		t.Fatal(err)
	}
	info, err := dc.ServerVersion()
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(info.GitVersion, "v1.35.") {
		t.Errorf("the server says it is %q, want v1.35.x", info.GitVersion)
	}
	c, err := client.New(cfg, client.Options{Scheme: scheme})
	if err != nil {
		t.Fatal(err)
	}
	ns := &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: "testenv-assets"}}
	if err := c.Create(t.Context(), ns); err != nil {
		t.Fatal(err)
	}
	var crds apiextensionsv1.CustomResourceDefinitionList
	if err := c.List(t.Context(), &crds); err != nil {
		t.Fatal(err)
	}
	if len(crds.Items) != 3 {
		t.Errorf("%d CRDs installed, want the 3 of internal/testapi/crd", len(crds.Items))
	}
}
