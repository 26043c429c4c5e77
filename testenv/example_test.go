package testenv_test

import (
	"context"
	"fmt"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/manager"

	testapiv1 "github.com/statuspatch/statuspatch/internal/testapi/v1"
	"github.com/statuspatch/statuspatch/patcher"
	"github.com/statuspatch/statuspatch/testenv"
	"github.com/statuspatch/statuspatch/testenv/internal/testapi"
)

// exampleWidget starts an API server with the Widget CRD and creates
// default/w1 through its client.
func exampleWidget(ctx context.Context) (*testenv.Env, func(), error) {
	s := runtime.NewScheme()
	if err := testapiv1.AddToScheme(s); err != nil {
		return nil, nil, err
	}
	env, stop, err := testenv.StartServer(ctx, testenv.WithCRDs(testapi.CRDs()...), testenv.WithScheme(s))
	if err != nil {
		return nil, nil, err
	}
	w := &testapiv1.Widget{ObjectMeta: metav1.ObjectMeta{Namespace: "default", Name: "w1"}}
	if err := env.Client.Create(ctx, w); err != nil {
		stop()
		return nil, nil, err
	}
	return env, stop, nil
}

// StartServer runs a real API server (apiextensions-apiserver on an
// embedded etcd) in the process, outside a test: here two reconciles read
// one Widget, both decide a plan, and the optimistic lock makes the second
// decide again on the first's plan instead of erasing it.
func ExampleStartServer() {
	ctx := context.Background()
	env, stop, err := exampleWidget(ctx)
	if err != nil {
		fmt.Println(err)
		return
	}
	defer stop()
	key := client.ObjectKey{Namespace: "default", Name: "w1"}
	first, _ := patcher.Fetch(ctx, env.Client, key, &testapiv1.Widget{})
	second, _ := patcher.Fetch(ctx, env.Client, key, &testapiv1.Widget{})

	plan := func(id string) func(*testapiv1.Widget) error {
		return func(w *testapiv1.Widget) error {
			if w.Status.Plan == nil {
				w.Status.Plan = &testapiv1.WidgetPlan{ID: id}
			}
			return nil
		}
	}
	fmt.Println("first:", first.Retry(ctx, plan("a")))
	fmt.Println("second:", second.Retry(ctx, plan("b"))) // a 409, then the fresh read
	stored := &testapiv1.Widget{}
	_ = env.Client.Get(ctx, key, stored)
	fmt.Println("plan:", stored.Status.Plan.ID)
	// Output:
	// first: <nil>
	// second: <nil>
	// plan: a
}

// Two controllers own one condition type each: with WithOwnedConditions, a
// Flush that conflicts only over its own conditions is written again onto
// the fresh list, and the other controller's condition stays.
func ExampleStartServer_ownedConditions() {
	ctx := context.Background()
	env, stop, err := exampleWidget(ctx)
	if err != nil {
		fmt.Println(err)
		return
	}
	defer stop()
	key := client.ObjectKey{Namespace: "default", Name: "w1"}
	ready, _ := patcher.Fetch(ctx, env.Client, key, &testapiv1.Widget{}, patcher.WithOwnedConditions("Ready"))
	synced, _ := patcher.Fetch(ctx, env.Client, key, &testapiv1.Widget{}, patcher.WithOwnedConditions("Synced"))

	set := func(w *testapiv1.Widget, t string) {
		w.Status.Conditions = append(w.Status.Conditions, metav1.Condition{
			Type: t, Status: metav1.ConditionTrue, Reason: "Done", LastTransitionTime: metav1.Now()})
	}
	set(synced.Object(), "Synced")
	fmt.Println("synced:", synced.Flush(ctx))
	set(ready.Object(), "Ready")
	fmt.Println("ready:", ready.Flush(ctx)) // conflicts, then writes Ready onto the fresh list
	stored := &testapiv1.Widget{}
	_ = env.Client.Get(ctx, key, stored)
	for _, c := range stored.Status.Conditions {
		fmt.Println(c.Type, c.Status)
	}
	// Output:
	// synced: <nil>
	// ready: <nil>
	// Synced True
	// Ready True
}

// In a test, Start stops the server when the test ends; NewManager makes a
// manager on it (leader election and metrics off, the mapper built from the
// CRDs).
func ExampleStart() {
	_ = func(t *testing.T) {
		s := runtime.NewScheme()
		_ = testapiv1.AddToScheme(s)
		env := testenv.Start(t, testenv.WithCRDDirectory("config/crd/bases"), testenv.WithScheme(s))
		mgr, err := env.NewManager(manager.Options{})
		if err != nil {
			t.Fatal(err)
		}
		_ = mgr // register the reconcilers, then mgr.Start(ctx)
	}
}

// WithFullAPI runs the kube-apiserver binary against the in-process etcd,
// serving built-in kinds as well as the CRDs; build it once with `go run
// github.com/statuspatch/statuspatch/testenv/cmd/testenv-assets use`
// (docs/testenv.md). Without the binary Start fails naming that command.
func ExampleWithFullAPI() {
	_ = func(t *testing.T) {
		env := testenv.Start(t, testenv.WithFullAPI())
		_ = env.Client // Pods, Deployments, StatefulSets ... as the API server serves them
	}
}
