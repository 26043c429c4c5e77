package explore_test

import (
	"context"
	"errors"
	"sync"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/controller/controllerutil"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"

	testv1 "github.com/statuspatch/statuspatch/internal/testapi/v1"
	"github.com/statuspatch/statuspatch/testenv/explore"
)

var (
	fullOnce sync.Once
	fullEnv  *testServer
	fullErr  error
	// fullStop stops fullEnv's kube-apiserver, from TestMain: envtest
	// starts it in a process group of its own, with no parent-death
	// signal, so the test binary's exit does not end it.
	fullStop func()
)

// fullAPIServer is a kube-apiserver (the full API: Namespaces and batch/v1
// Jobs, which the embedded server does not serve) with the test kinds,
// shared by the tests that need it (each Run cleans up what it wrote: one
// started per test collides on its etcd's ports); skipped where no
// kube-apiserver binary is built.
func fullAPIServer(t *testing.T) *testServer {
	t.Helper()
	if err := fullAPIAvailable(); errors.Is(err, errUnavailable) {
		t.Skipf("full API: %v", err)
	} else if err != nil {
		t.Fatal(err)
	}
	fullOnce.Do(func() {
		s := runtime.NewScheme()
		if fullErr = testv1.AddToScheme(s); fullErr != nil {
			return
		}
		if fullEnv, fullErr = startServer("full", s); fullErr == nil {
			fullStop = fullEnv.stop
		}
	})
	if fullErr != nil {
		t.Fatalf("API server: %v", fullErr)
	}
	return fullEnv
}

// holder puts a finalizer on its Widget's Namespace and never removes it.
type holder struct{ c client.Client }

func (r *holder) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	ns := &unstructured.Unstructured{}
	ns.SetAPIVersion("v1")
	ns.SetKind("Namespace")
	if err := r.c.Get(ctx, client.ObjectKey{Name: req.Namespace}, ns); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	if controllerutil.AddFinalizer(ns, "example.com/hold") {
		return ctrl.Result{}, r.c.Update(ctx, ns)
	}
	return ctrl.Result{}, nil
}

// The reset between schedules removes a Namespace the scenario created
// even when a reconciler left a finalizer on it and no namespace
// controller runs: every schedule creates it again.
func TestResetRemovesNamespaceWithFinalizer(t *testing.T) {
	const nsName = "explore-reset"
	ns := &unstructured.Unstructured{}
	ns.SetAPIVersion("v1")
	ns.SetKind("Namespace")
	ns.SetName(nsName)
	s := explore.Scenario{
		Reconcilers: []explore.Reconciler{{Name: "holder", For: &testv1.Widget{},
			New: func(c client.Client, _ client.Reader) reconcile.Reconciler { return &holder{c: c} }}},
		Objects: []client.Object{ns, &testv1.Widget{ObjectMeta: metav1.ObjectMeta{Namespace: nsName, Name: "w"}}},
	}
	o := explore.Options{Backend: explore.Server(fullAPIServer(t)), Depth: 2, Budget: searchBound, StopAtFirst: true}
	res, err := explore.Run(t.Context(), s, o)
	if err != nil {
		t.Fatal(err)
	}
	if res.Violation != nil || res.Schedules < 2 {
		t.Fatalf("want at least 2 schedules and no violation, got %d:\n%v", res.Schedules, res.Violation)
	}
}
