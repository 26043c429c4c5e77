package patcher_test

import (
	"context"
	"fmt"

	appsv1 "k8s.io/api/apps/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/fake"
	"sigs.k8s.io/controller-runtime/pkg/client/interceptor"

	"github.com/statuspatch/statuspatch/patcher"
)

// exampleClient is a fake client holding one Deployment, default/web, with
// a status subresource, counting the status writes sent through it. The
// examples run on it so that `go test` runs them anywhere; testenv's
// examples run the same calls on a real API server.
func exampleClient() (client.Client, *int) {
	s := runtime.NewScheme()
	_ = appsv1.AddToScheme(s)
	d := &appsv1.Deployment{
		ObjectMeta: metav1.ObjectMeta{Name: "web", Namespace: "default", Generation: 2},
		Status:     appsv1.DeploymentStatus{Replicas: 1},
	}
	base := fake.NewClientBuilder().WithScheme(s).WithObjects(d).WithStatusSubresource(d).Build()
	writes := new(int)
	c := interceptor.NewClient(base, interceptor.Funcs{
		SubResourcePatch: func(ctx context.Context, c client.Client, sub string, obj client.Object, p client.Patch, opts ...client.SubResourcePatchOption) error {
			*writes++
			return c.SubResource(sub).Patch(ctx, obj, p, opts...)
		},
	})
	return c, writes
}

var webKey = client.ObjectKey{Namespace: "default", Name: "web"}

// Fetch reads the object and takes the base; Retry runs the decision and
// writes what it changed once, under the optimistic lock (the base's
// resourceVersion). On a 409 it reads the object again and runs the
// decision on the fresh state (testenv's ExampleStartServer shows that on a
// real API server). A decision that changes nothing sends nothing.
func Example() {
	ctx := context.Background()
	c, writes := exampleClient()
	p, err := patcher.Fetch(ctx, c, webKey, &appsv1.Deployment{})
	if err != nil {
		fmt.Println(err)
		return
	}
	decide := func(d *appsv1.Deployment) error {
		if d.Status.ObservedGeneration != d.Generation {
			d.Status.ObservedGeneration = d.Generation
			d.Status.ReadyReplicas = d.Status.Replicas
		}
		return nil
	}
	fmt.Println("retry:", p.Retry(ctx, decide), "writes:", *writes)
	fmt.Println("again:", p.Retry(ctx, decide), "writes:", *writes)
	fmt.Println("observed generation:", p.Object().Status.ObservedGeneration)
	// Output:
	// retry: <nil> writes: 1
	// again: <nil> writes: 1
	// observed generation: 2
}

// Flush writes the status changes made to Object since the base as one
// status-only patch carrying the base's resourceVersion, and sends nothing
// when nothing changed.
func ExamplePatcher_Flush() {
	ctx := context.Background()
	c, writes := exampleClient()
	p, err := patcher.Fetch(ctx, c, webKey, &appsv1.Deployment{})
	if err != nil {
		fmt.Println(err)
		return
	}
	p.Object().Status.Replicas = 1 // the value it has: no change
	fmt.Println("no-op flush:", p.Flush(ctx), "writes:", *writes)

	p.Object().Status.ReadyReplicas = 1
	fmt.Println("flush:", p.Flush(ctx), "writes:", *writes)
	// Output:
	// no-op flush: <nil> writes: 0
	// flush: <nil> writes: 1
}

// Apply mode writes the status as a server-side apply of the fields this
// writer sets, under its field owner and the optimistic lock: fields other
// writers own stay theirs. ApplyStatus takes the fields to own (here an
// unstructured map; a typed apply configuration works too).
func ExampleWithWriteMode() {
	ctx := context.Background()
	c, _ := exampleClient()
	p, err := patcher.Fetch(ctx, c, webKey, &appsv1.Deployment{},
		patcher.WithWriteMode(patcher.WriteApply), patcher.WithFieldOwner("web-controller"))
	if err != nil {
		fmt.Println(err)
		return
	}
	if err := p.ApplyStatus(map[string]any{"readyReplicas": int64(1)}); err != nil {
		fmt.Println(err)
		return
	}
	_ = p.Flush(ctx) // one apply request to the status subresource
}
