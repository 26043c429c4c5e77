package patcher_test

import (
	"context"
	"errors"
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/fake"
	"sigs.k8s.io/controller-runtime/pkg/client/interceptor"

	"github.com/statuspatch/statuspatch/patcher"
)

// A 409 that did not come from the server (the object is still at the
// base), to a write whose sends the patcher cannot count: the status
// subresource's read, which no cache serves, shows the base, so the write,
// which carries the base, was not stored and cannot be. Flush and Retry
// say Conflict (Retry re-runs mutate on that read), never nil, never
// Unknown, and nothing is sent again.
func TestA409WhileTheServerHoldsTheBase(t *testing.T) {
	for _, retry := range []bool{false, true} {
		base := fake.NewClientBuilder().WithScheme(scheme(t)).WithObjects(deployment()).
			WithStatusSubresource(&appsv1.Deployment{}).Build()
		var patches, conflicts int
		c := interceptor.NewClient(base, interceptor.Funcs{
			SubResourcePatch: func(ctx context.Context, c client.Client, sub string, obj client.Object, p client.Patch, opts ...client.SubResourcePatchOption) error {
				patches++
				if conflicts > 0 {
					conflicts--
					return apierrors.NewConflict(schema.GroupResource{Group: "apps", Resource: "deployments"}, obj.GetName(), errors.New("injected"))
				}
				return c.SubResource(sub).Patch(ctx, obj, p, opts...)
			},
			// GET .../status, as the API server serves it: the whole object.
			SubResourceGet: func(ctx context.Context, c client.Client, sub string, obj, out client.Object, _ ...client.SubResourceGetOption) error {
				return c.Get(ctx, client.ObjectKeyFromObject(obj), out)
			},
		})
		key := client.ObjectKeyFromObject(deployment())
		conflicts = 1
		p, err := patcher.Fetch(ctx, c, key, &appsv1.Deployment{}, patcher.WithMetrics(nil))
		if err != nil {
			t.Fatal(err)
		}
		if !retry {
			p.Object().Status.AvailableReplicas = 7
			err = p.Flush(ctx)
			if !apierrors.IsConflict(err) || errors.Is(err, patcher.ErrWriteOutcomeUnknown) || patches != 1 {
				t.Fatalf("Flush = %v after %d sends; want the Conflict, one send", err, patches)
			}
			continue
		}
		var runs int
		err = p.Retry(ctx, func(d *appsv1.Deployment) error {
			runs++
			d.Status.AvailableReplicas = 7
			return nil
		})
		if err != nil || runs != 2 || patches != 2 || fetch(t, base).Status.AvailableReplicas != 7 {
			t.Fatalf("Retry = %v after %d runs, %d sends (stored %d); want nil after 2 runs, 2 sends, 7 stored",
				err, runs, patches, fetch(t, base).Status.AvailableReplicas)
		}
	}
}
