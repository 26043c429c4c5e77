// Package ginkgosuite is an example, not a library: testenv in a
// kubebuilder-style Ginkgo suite. It lives in the examples module so that
// testenv's go.mod requires neither Ginkgo nor Gomega of its users.
package ginkgosuite_test

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
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/statuspatch/statuspatch/examples/api/v1alpha1"
	"github.com/statuspatch/statuspatch/testenv"
)

func TestGinkgoSuite(t *testing.T) {
	RegisterFailHandler(Fail)
	RunSpecs(t, "testenv in a kubebuilder-style Ginkgo suite")
}

var suiteEnv *testenv.Env

var _ = BeforeSuite(func() {
	scheme := runtime.NewScheme()
	Expect(errors.Join(v1alpha1.AddToScheme(scheme), apiextensionsv1.AddToScheme(scheme))).To(Succeed())
	env, stop, err := testenv.StartServer(context.Background(),
		testenv.WithCRDDirectory("../../config/crd/bases"), // kubebuilder's suite_test.go: filepath.Join("..", "..", "config", "crd", "bases")
		testenv.WithScheme(scheme),
		testenv.WithBackend(testenv.BackendEmbedded))
	Expect(err).NotTo(HaveOccurred())
	DeferCleanup(stop)
	GinkgoWriter.Printf("testenv: %s API server (%s)\n", env.Backend, env.BackendReason)
	suiteEnv = env
})

var _ = Describe("a Rollout's status", func() {
	It("rejects a write from a stale base with a 409", func(ctx SpecContext) {
		w := &v1alpha1.Rollout{
			ObjectMeta: metav1.ObjectMeta{Namespace: "default", Name: "stale"},
			Spec:       v1alpha1.RolloutSpec{Version: "v1"},
		}
		Expect(suiteEnv.Client.Create(ctx, w)).To(Succeed())
		stale := w.DeepCopy()

		base := w.DeepCopy()
		w.Status.Phase = v1alpha1.RolloutPlanning
		Expect(suiteEnv.Client.Status().Patch(ctx, w,
			client.MergeFromWithOptions(base, client.MergeFromWithOptimisticLock{}))).To(Succeed())

		base = stale.DeepCopy()
		stale.Status.Phase = v1alpha1.RolloutCompleted
		err := suiteEnv.Client.Status().Patch(ctx, stale,
			client.MergeFromWithOptions(base, client.MergeFromWithOptimisticLock{}))
		Expect(apierrors.IsConflict(err)).To(BeTrue(), "got %v", err)
	})
})
