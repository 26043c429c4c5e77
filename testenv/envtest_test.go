package testenv_test

import (
	"os"
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	clientgoscheme "k8s.io/client-go/kubernetes/scheme"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/statuspatch/statuspatch/testenv"
)

// The envtest backend runs real kube-apiserver and etcd binaries; it needs
// KUBEBUILDER_ASSETS, which testenv never downloads.
func TestEnvtestBackend(t *testing.T) {
	if os.Getenv(testenv.EnvAssets) == "" {
		t.Skip("KUBEBUILDER_ASSETS is not set: no kube-apiserver/etcd binaries, skipping the envtest backend " +
			"(the embedded backend is tested by TestEmbedded)")
	}
	scheme := testScheme(t)
	if err := clientgoscheme.AddToScheme(scheme); err != nil {
		t.Fatal(err)
	}
	env := testenv.Start(t,
		testenv.WithCRDDirectory(testapiCRDs),
		testenv.WithScheme(scheme),
		testenv.WithBackend(testenv.BackendEnvtest))
	if env.Backend != testenv.BackendEnvtest {
		t.Fatalf("Backend = %v", env.Backend)
	}
	ctx := ctxFor(t)
	// kube-apiserver, unlike the embedded server, wants namespaces to exist.
	for _, name := range []string{"first", "optimistic", "watch"} {
		if err := env.Client.Create(ctx, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: name}}); err != nil {
			t.Fatal(err)
		}
	}
	testFirstCreateIsFast(t, env)
	testOptimisticLock(t, env)
	testClusterScoped(t, env)
	testMapper(t, env)
	testManagerWatch(t, env)

	// Unlike the embedded server, kube-apiserver serves core kinds, and the
	// mapper finds them through discovery.
	ns := &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: "envtest-core"}}
	if err := env.Client.Create(ctx, ns); err != nil && !apierrors.IsAlreadyExists(err) {
		t.Fatal(err)
	}
	if err := env.Client.Get(ctx, client.ObjectKeyFromObject(ns), &corev1.Namespace{}); err != nil {
		t.Fatal(err)
	}
}

// Without binaries the envtest backend fails with an error naming the
// directory; nothing is downloaded.
func TestEnvtestBackendMissingBinaries(t *testing.T) {
	dir := t.TempDir()
	_, stop, err := testenv.StartServer(t.Context(),
		testenv.WithCRDDirectory(testapiCRDs),
		testenv.WithBackend(testenv.BackendEnvtest),
		testenv.WithBinaryAssetsDirectory(dir))
	if err == nil {
		stop()
		t.Fatal("StartServer succeeded without binaries")
	}
	if !strings.Contains(err.Error(), dir) {
		t.Fatalf("error %q does not name %s", err, dir)
	}
	t.Log(err)
}
