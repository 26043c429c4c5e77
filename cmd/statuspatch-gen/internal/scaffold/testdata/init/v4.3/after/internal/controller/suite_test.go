/*
Copyright 2024 The Kubernetes authors.

Licensed under the Apache License, Version 2.0 (the "License");
you may not use this file except in compliance with the License.
You may obtain a copy of the License at

    http://www.apache.org/licenses/LICENSE-2.0

Unless required by applicable law or agreed to in writing, software
distributed under the License is distributed on an "AS IS" BASIS,
WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
See the License for the specific language governing permissions and
limitations under the License.
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

	widgetsv1 "example.com/widgets/api/v1"
	// +kubebuilder:scaffold:imports
)

// These tests use Ginkgo (BDD-style Go testing framework). Refer to
// http://onsi.github.io/ginkgo/ to learn more about Ginkgo.

var cfg *rest.Config
var k8sClient client.Client
var testEnv *testenv.Env
var ctx context.Context
var cancel context.CancelFunc

func TestControllers(t *testing.T) {
	RegisterFailHandler(Fail)

	RunSpecs(t, "Controller Suite")
}

var _ = BeforeSuite(func() {
	logf.SetLogger(zap.New(zap.WriteTo(GinkgoWriter), zap.UseDevMode(true)))

	ctx, cancel = context.WithCancel(context.TODO())

	By("bootstrapping test environment")
	// testenv, not envtest (statuspatch-gen init; docs/kubebuilder.md): the
	// CRDs on an in-process API server, no kube-apiserver or etcd binaries to
	// build; envtest's when KUBEBUILDER_ASSETS is set (make setup-envtest).
	var err error
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

	err = widgetsv1.AddToScheme(scheme.Scheme)
	Expect(err).NotTo(HaveOccurred())

	// +kubebuilder:scaffold:scheme

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
