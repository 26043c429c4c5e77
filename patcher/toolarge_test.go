package patcher_test

import (
	"context"
	"errors"
	"fmt"
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/fake"
	"sigs.k8s.io/controller-runtime/pkg/client/interceptor"

	"github.com/statuspatch/statuspatch/patcher"
)

// docs/patcher.md's error table, the size refusal on a client whose sends
// cannot be counted (the fake client sends through no net/http): a write
// carrying the lock (merge mode, apply with the lock) is refused for its
// size definitely, ErrStatusTooLarge after one send, since a stored
// earlier send would have made the answer a 409. An apply without the lock
// may have been sent more than once with an earlier send stored, so it is
// settled as a lost answer: read back, sent again while at the base, and
// ErrWriteOutcomeUnknown when that cannot tell, never ErrStatusTooLarge.
// (The real server's sends are counted: TestErrClassStatusTooLarge.)
func TestTooLargeWhereSendsCannotBeCounted(t *testing.T) {
	for _, tc := range []struct {
		mode     patcher.WriteMode
		definite bool
	}{
		{patcher.WriteMergePatch, true},
		{patcher.WriteApply, true},
		{patcher.WriteApplyWithoutLock, false},
	} {
		t.Run(fmt.Sprint(tc.mode), func(t *testing.T) {
			base := fake.NewClientBuilder().WithScheme(scheme(t)).WithObjects(deployment()).WithStatusSubresource(&appsv1.Deployment{}).Build()
			sends := 0
			c := interceptor.NewClient(base, interceptor.Funcs{
				// Apply mode reads ownership from managedFields, which the
				// fake client drops: another manager's, as a server has.
				Get: func(ctx context.Context, c client.WithWatch, key client.ObjectKey, obj client.Object, opts ...client.GetOption) error {
					if err := c.Get(ctx, key, obj, opts...); err != nil {
						return err
					}
					obj.SetManagedFields([]metav1.ManagedFieldsEntry{{Manager: "creator", Operation: metav1.ManagedFieldsOperationUpdate, APIVersion: "apps/v1",
						FieldsType: "FieldsV1", FieldsV1: &metav1.FieldsV1{Raw: []byte(`{"f:spec":{"f:paused":{}}}`)}}})
					return nil
				},
				SubResourcePatch: func(context.Context, client.Client, string, client.Object, client.Patch, ...client.SubResourcePatchOption) error {
					sends++
					return apierrors.NewInternalError(errors.New("etcdserver: request is too large"))
				},
			})
			p := patcher.New(c, fetch(t, c), patcher.WithFieldOwner("ctl"), patcher.WithWriteMode(tc.mode), patcher.WithMetrics(nil), fastBackoff)
			p.Object().Status.ReadyReplicas = 1
			err := p.Flush(ctx)
			if apierrors.IsConflict(err) {
				t.Fatalf("Flush = %v; a size refusal is no Conflict", err)
			}
			if tc.definite {
				if !errors.Is(err, patcher.ErrStatusTooLarge) || errors.Is(err, patcher.ErrWriteOutcomeUnknown) || sends != 1 {
					t.Fatalf("Flush = %v after %d sends; want ErrStatusTooLarge after 1", err, sends)
				}
				return
			}
			if !errors.Is(err, patcher.ErrWriteOutcomeUnknown) || errors.Is(err, patcher.ErrStatusTooLarge) || sends < 2 {
				t.Fatalf("Flush = %v after %d sends; want ErrWriteOutcomeUnknown after the write was sent again, not ErrStatusTooLarge", err, sends)
			}
		})
	}
}
