// Package realops4 explores an open-source operator none of
// examples/realops, realops2 and realops3 explored: kubernetes-sigs'
// karpenter (sigs.k8s.io/karpenter): its NodePool controllers on
// testenv's embedded API server, its NodeClaim controllers on the full
// API, with the explorer at the defaults (docs/explore-your-operator.md).
// It is its own module, outside go.work and make test.
package realops4

import (
	"errors"
	"os"
	"testing"
	"time"

	"github.com/go-logr/logr"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	clientgoscheme "k8s.io/client-go/kubernetes/scheme"
	"k8s.io/klog/v2"
	ctrllog "sigs.k8s.io/controller-runtime/pkg/log"

	"sigs.k8s.io/karpenter/pkg/apis"
	karpv1 "sigs.k8s.io/karpenter/pkg/apis/v1"
	"sigs.k8s.io/karpenter/pkg/test/v1alpha1"

	"github.com/statuspatch/statuspatch/testenv"
)

// TestMain silences controller-runtime's logger and klog, which the
// operator logs through.
func TestMain(m *testing.M) {
	ctrllog.SetLogger(logr.Discard())
	klog.SetLogger(logr.Discard())
	os.Exit(m.Run())
}

// addToScheme adds karpenter's kinds and its tests' NodeClass, which its
// packages register in client-go's global scheme only.
func addToScheme(s *runtime.Scheme) error {
	gv := schema.GroupVersion{Group: apis.Group, Version: "v1"}
	s.AddKnownTypes(gv, &karpv1.NodePool{}, &karpv1.NodePoolList{}, &karpv1.NodeClaim{}, &karpv1.NodeClaimList{})
	metav1.AddToGroupVersion(s, gv)
	tgv := schema.GroupVersion{Group: v1alpha1.Group, Version: "v1alpha1"}
	s.AddKnownTypes(tgv, &v1alpha1.TestNodeClass{}, &v1alpha1.TestNodeClassList{})
	metav1.AddToGroupVersion(s, tgv)
	return nil
}

// start runs testenv's embedded API server with karpenter's CRDs and its
// tests' TestNodeClass CRD, and no built-in kind's full API: the
// NodePool controllers explored there read and write only those kinds.
// It honours no STATUSPATCH_REQUIRE_FULLAPI on purpose: the embedded
// server needs no kube-apiserver, so these tests never skip. startFull
// is the full API, for the NodeClaim controllers (they read Nodes and
// Pods).
func start(t *testing.T) *testenv.Env {
	t.Helper()
	return testenv.Start(t, append(karpenterOptions(t), testenv.WithTimeout(10*time.Minute))...) // a loaded machine
}

// startFull runs the full API (kube-apiserver against testenv's etcd)
// with the same CRDs, as examples/realops3's start does: it skips without
// a kube-apiserver (make testenv-assets builds one) unless
// STATUSPATCH_REQUIRE_FULLAPI=1 (make explore-operators sets it), which
// fails instead.
func startFull(t *testing.T) *testenv.Env {
	t.Helper()
	if _, _, err := testenv.KubeAPIServerPath(); err != nil {
		if os.Getenv("STATUSPATCH_REQUIRE_FULLAPI") == "1" {
			t.Fatalf("STATUSPATCH_REQUIRE_FULLAPI=1 and no kube-apiserver: %v", err)
		}
		t.Skipf("skipping: karpenter's NodeClaim controllers read Nodes and Pods, built-in kinds of the full API: %v", err)
	}
	return testenv.Start(t, append(karpenterOptions(t), testenv.WithFullAPI(), testenv.WithTimeout(10*time.Minute))...) // a loaded machine
}

// karpenterOptions are both servers' scheme and CRDs.
func karpenterOptions(t *testing.T) []testenv.Option {
	t.Helper()
	scheme := runtime.NewScheme()
	if err := errors.Join(clientgoscheme.AddToScheme(scheme), addToScheme(scheme)); err != nil {
		t.Fatalf("scheme: %v", err)
	}
	crds := append(append(apis.CRDs[:0:0], apis.CRDs...), v1alpha1.CRDs...)
	return []testenv.Option{testenv.WithScheme(scheme), testenv.WithCRDs(crds...)}
}
