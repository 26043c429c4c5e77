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
		return c.Status().Update(ctx, latest) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example.com/api/v1\); status replayed from before the re-read \(assigned from captured desired\) \(not moved to the patcher: the status assigned at line 20 is decided before the re-read at line 17, and Flush would write the same decision: move the decision into WidgetStatusPatcher\.Retry's mutate, which decides again from the object it re-reads on a conflict\)$`
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

// A replay through a patcher's Flush: its patcher is fetched, the status
// copied from the object given.
func replayFlush(ctx context.Context, c client.Client, old *v1.Widget) error { // want replayFlush:`^statusOnly\[2\]$`
	p, err := v1.FetchWidgetStatusPatcher(ctx, c, client.ObjectKeyFromObject(old))
	if err != nil {
		return err
	}
	p.Object().Status = old.Status
	return p.Flush(ctx) // want `^replayed status write: WidgetStatusPatcher.Flush of Widget: status replayed from before the re-read \(computed from old, read before the re-read\) through Flush: decide it in Retry's mutate, from the object it re-reads$`
}

// Twin: the fetched object's own status decided from it.
func flush(ctx context.Context, c client.Client, key client.ObjectKey) error {
	p, err := v1.FetchWidgetStatusPatcher(ctx, c, key)
	if err != nil {
		return err
	}
	p.Object().Status.Ready = p.Object().Generation > 0
	return p.Flush(ctx)
}
