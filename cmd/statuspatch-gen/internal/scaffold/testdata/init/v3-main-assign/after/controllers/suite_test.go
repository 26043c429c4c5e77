package controllers

import (
	"context"
	"path/filepath"
	"testing"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"k8s.io/client-go/kubernetes/scheme"
	"k8s.io/client-go/rest"
	"sigs.k8s.io/controller-runtime/pkg/client"
	logf "sigs.k8s.io/controller-runtime/pkg/log"
	"sigs.k8s.io/controller-runtime/pkg/log/zap"

	"github.com/statuspatch/statuspatch/testenv"

	batchv1 "tutorial.kubebuilder.io/project/api/v1"
	//+kubebuilder:scaffold:imports
)

var cfg *rest.Config
var k8sClient client.Client
var testEnv *testenv.Env

func TestAPIs(t *testing.T) {
	RegisterFailHandler(Fail)

	RunSpecs(t, "Controller Suite")
}

var _ = BeforeSuite(func() {
	logf.SetLogger(zap.New(zap.WriteTo(GinkgoWriter), zap.UseDevMode(true)))

	By("bootstrapping test environment")
	// testenv, not envtest (statuspatch-gen init; docs/kubebuilder.md): the
	// CRDs on an in-process API server, no kube-apiserver or etcd binaries to
	// build; envtest's when KUBEBUILDER_ASSETS is set (make setup-envtest).
	var err error
	var stop func()
	testEnv, stop, err = testenv.StartServer(context.Background(),
		testenv.WithCRDDirectory(filepath.Join("..", "config", "crd", "bases")),
		testenv.WithScheme(scheme.Scheme))
	Expect(err).NotTo(HaveOccurred())
	DeferCleanup(stop)
	GinkgoWriter.Printf("testenv: %s API server (%s)\n", testEnv.Backend, testEnv.BackendReason)

	// cfg is defined in this file globally.
	cfg = testEnv.Config
	Expect(cfg).NotTo(BeNil())

	err = batchv1.AddToScheme(scheme.Scheme)
	Expect(err).NotTo(HaveOccurred())

	//+kubebuilder:scaffold:scheme

	// testenv's mapper: the in-process server serves no discovery of the
	// built-in groups, which client.New's default mapper asks for.
	k8sClient, err = client.New(cfg, client.Options{Scheme: scheme.Scheme, Mapper: testEnv.Mapper})
	Expect(err).NotTo(HaveOccurred())
	Expect(k8sClient).NotTo(BeNil())

})

var _ = AfterSuite(func() {
	By("tearing down the test environment")
})
