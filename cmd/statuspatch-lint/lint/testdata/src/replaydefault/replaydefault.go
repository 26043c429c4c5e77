// Package replaydefault: default mode names replays too, a generated
// patcher's Retry included.
package replaydefault

import (
	"context"

	v1 "example.com/api/v1"
	"github.com/statuspatch/statuspatch/patcher"
	"k8s.io/client-go/util/retry"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

func replay(ctx context.Context, c client.Client, desired *v1.Widget) error { // want replay:`^statusOnly\[2\]$`
	return retry.RetryOnConflict(retry.DefaultRetry, func() error {
		latest := &v1.Widget{}
		if err := c.Get(ctx, client.ObjectKeyFromObject(desired), latest); err != nil {
			return err
		}
		latest.Status = desired.Status
		return c.Status().Update(ctx, latest) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example.com/api/v1\); status replayed from before the re-read \(assigned from captured desired\)$`
	})
}

func replayRetry(ctx context.Context, p *patcher.Patcher[*v1.Widget], desired *v1.Widget) error { // want replayRetry:`^statusOnly\[2\]$`
	return p.Retry(ctx, func(live *v1.Widget) error { // want `^replayed status write: Patcher.Retry of Widget: status replayed from before the re-read \(assigned from captured desired\) in Retry's mutate$`
		live.Status = desired.Status
		return nil
	})
}

func recomputeRetry(ctx context.Context, p *patcher.Patcher[*v1.Widget]) error {
	return p.Retry(ctx, func(live *v1.Widget) error {
		live.Status.Ready = true
		return nil
	})
}
