// Package register numbers each Rollout once, in its status, as project
// E's tenant controller does.
package register

import (
	"context"
	"sync/atomic"

	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/controller/controllerutil"

	v1alpha1 "github.com/statuspatch/statuspatch/examples/api/v1alpha1"
)

// ids hands out the numbers: each stands for a call to billing that must
// happen once per object.
var ids atomic.Int64

// Register labels the Rollout and numbers it when it has no number yet;
// it returns the number the Rollout holds after the call.
func Register(ctx context.Context, c client.Client, key client.ObjectKey) (int32, error) {
	ro := &v1alpha1.Rollout{}
	ro.Name, ro.Namespace = key.Name, key.Namespace
	_, err := controllerutil.CreateOrPatch(ctx, c, ro, func() error {
		if ro.Labels == nil {
			ro.Labels = map[string]string{}
		}
		ro.Labels["registered"] = "true"
		if ro.Status.CompletedSteps == 0 {
			ro.Status.CompletedSteps = int32(ids.Add(1))
		}
		return nil
	})
	return ro.Status.CompletedSteps, err
}
