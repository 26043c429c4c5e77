/*
Copyright 2026 The widgets Authors.
*/

package controller

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

	shopv1 "example.com/shop/api/v1"
	// +kubebuilder:scaffold:imports
)

// These tests use Ginkgo (BDD-style Go testing framework). Refer to
// http://onsi.github.io/ginkgo/ to learn more about Ginkgo.

var (
	ctx       context.Context
	cancel    context.CancelFunc
	testEnv   *testenv.Env
	cfg       *rest.Config
	k8sClient client.Client
)

func TestControllers(t *testing.T) {
	RegisterFailHandler(Fail)

	RunSpecs(t, "Controller Suite")
}

var _ = BeforeSuite(func() {
	logf.SetLogger(zap.New(zap.WriteTo(GinkgoWriter), zap.UseDevMode(true)))

	ctx, cancel = context.WithCancel(context.TODO())

	var err error
	err = shopv1.AddToScheme(scheme.Scheme)
	Expect(err).NotTo(HaveOccurred())

	// +kubebuilder:scaffold:scheme

	By("bootstrapping test environment")
	// testenv, not envtest (statuspatch-gen init; docs/kubebuilder.md): the
	// CRDs on an in-process API server, no kube-apiserver or etcd binaries to
	// build; envtest's when KUBEBUILDER_ASSETS is set (make setup-envtest).
	var stop func()
	testEnv, stop, err = testenv.StartServer(ctx,
		testenv.WithCRDDirectory(filepath.Join("..", "..", "config", "crd", "bases")),
		testenv.WithScheme(scheme.Scheme))
	Expect(err).NotTo(HaveOccurred())
	DeferCleanup(stop)
	GinkgoWriter.Printf("testenv: %s API server (%s)\n", testEnv.Backend, testEnv.BackendReason)

	// cfg is defined in this file globally.
	cfg = testEnv.Config
	Expect(cfg).NotTo(BeNil())

	// testenv's mapper: the in-process server serves no discovery of the
	// built-in groups, which client.New's default mapper asks for.
	k8sClient, err = client.New(cfg, client.Options{Scheme: scheme.Scheme, Mapper: testEnv.Mapper})
	Expect(err).NotTo(HaveOccurred())
	Expect(k8sClient).NotTo(BeNil())
})

var _ = AfterSuite(func() {
	By("tearing down the test environment")
	cancel()
})
