package testenv_test

// How testenv sits beside kubebuilder's Ginkgo suite. kubebuilder scaffolds
// internal/controller/suite_test.go: TestControllers runs the specs, and a
// BeforeSuite starts envtest from KUBEBUILDER_ASSETS, which the scaffolded
// `make test` exports. This file is such a suite with testenv in the
// BeforeSuite instead. Plain `go test` functions that call testenv.Start can
// live in the same package: Ginkgo runs only inside its one Test function.
//
// Under kubebuilder's `make test`, KUBEBUILDER_ASSETS is set, and testenv
// would choose the envtest backend (namespaces must then exist, core kinds
// are served). WithBackend(BackendEmbedded) keeps the in-process server
// whatever the Makefile exports; Env.BackendReason says which won and why.

import (
	"context"
	"errors"
	"testing"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/statuspatch/statuspatch/testenv"
	testv1 "github.com/statuspatch/statuspatch/testenv/internal/testapi/v1"
)

func TestGinkgoSuite(t *testing.T) {
	RegisterFailHandler(Fail)
	RunSpecs(t, "testenv in a kubebuilder-style Ginkgo suite")
}

var suiteEnv *testenv.Env

var _ = BeforeSuite(func() {
	scheme := runtime.NewScheme()
	Expect(errors.Join(testv1.AddToScheme(scheme), apiextensionsv1.AddToScheme(scheme))).To(Succeed())
	env, stop, err := testenv.StartServer(context.Background(),
		testenv.WithCRDDirectory(testapiCRDs), // kubebuilder: filepath.Join("..", "..", "config", "crd", "bases")
		testenv.WithScheme(scheme),
		testenv.WithBackend(testenv.BackendEmbedded))
	Expect(err).NotTo(HaveOccurred())
	DeferCleanup(stop)
	GinkgoWriter.Printf("testenv: %s API server (%s)\n", env.Backend, env.BackendReason)
	suiteEnv = env
})

var _ = Describe("a Widget's status", func() {
	It("rejects a write from a stale base with a 409", func(ctx SpecContext) {
		w := newWidget("ginkgo", "stale")
		Expect(suiteEnv.Client.Create(ctx, w)).To(Succeed())
		stale := w.DeepCopy()

		base := w.DeepCopy()
		w.Status.Phase = "First"
		Expect(suiteEnv.Client.Status().Patch(ctx, w,
			client.MergeFromWithOptions(base, client.MergeFromWithOptimisticLock{}))).To(Succeed())

		base = stale.DeepCopy()
		stale.Status.Phase = "Second"
		err := suiteEnv.Client.Status().Patch(ctx, stale,
			client.MergeFromWithOptions(base, client.MergeFromWithOptimisticLock{}))
		Expect(apierrors.IsConflict(err)).To(BeTrue(), "got %v", err)
	})
})
