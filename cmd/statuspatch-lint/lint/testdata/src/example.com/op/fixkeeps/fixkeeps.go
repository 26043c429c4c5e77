// Package fixkeeps: -fix erases no finding. A replayed write stays
// (moving it onto Flush would write the same decision, unreported); a
// patch whose base is taken after the status changes sends nothing, is
// named so, and gets no lock (it would then send only the
// resourceVersion); moved onto the patcher, it writes the changes.
package fixkeeps

import (
	"context"

	v1 "example.com/op/api/v1"
	"k8s.io/client-go/util/retry"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// A replay -fix used to move onto Flush: it stays, and says what to do.
func replayed(ctx context.Context, c client.Client, desired *v1.Widget) error { // want replayed:`^statusOnly\[2\]$`
	return retry.RetryOnConflict(retry.DefaultRetry, func() error {
		latest := &v1.Widget{}
		if err := c.Get(ctx, client.ObjectKeyFromObject(desired), latest); err != nil {
			return err
		}
		latest.Status.Ready = desired.Status.Ready
		return c.Status().Update(ctx, latest) // want `^blind: Status\(\).Update of Widget: status replayed from before the re-read \(assigned from captured desired\) \(not moved to the patcher: the status assigned at line 23 is decided before the re-read at line 20, and Flush would write the same decision: move the decision into WidgetStatusPatcher\.Retry's mutate, which decides again from the object it re-reads on a conflict\)$`
	})
}

// Gadget has no patcher: the lock is -fix's only fix, and no fix for a
// late base.
func lateInline(ctx context.Context, c client.Client, key client.ObjectKey) error {
	g := &v1.Gadget{}
	if err := c.Get(ctx, key, g); err != nil {
		return err
	}
	g.Status.Phase = "Ready"
	return c.Status().Patch(ctx, g, client.MergeFrom(g.DeepCopy())) // want `^empty: Status\(\).Patch of Gadget: this patch sends nothing: the base is taken after the status changes at line 35; take it before them, or use the generated patcher$`
}

func lateLocked(ctx context.Context, c client.Client, key client.ObjectKey, phase string) error {
	g := &v1.Gadget{}
	if err := c.Get(ctx, key, g); err != nil {
		return err
	}
	if phase != "" {
		g.Status.Phase = phase
	}
	base := g.DeepCopy()
	return c.Status().Patch(ctx, g, client.MergeFromWithOptions(base, client.MergeFromWithOptimisticLock{})) // want `^empty: Status\(\).Patch of Gadget: this patch sends only the resourceVersion: the base is taken after the status changes at line 45; take it before them, or use the generated patcher$`
}

// Twin: the base before the changes: blind, and locked.
func early(ctx context.Context, c client.Client, key client.ObjectKey) error {
	g := &v1.Gadget{}
	if err := c.Get(ctx, key, g); err != nil {
		return err
	}
	base := g.DeepCopy()
	g.Status.Phase = "Ready"
	return c.Status().Patch(ctx, g, client.MergeFrom(base)) // want `^blind: Status\(\).Patch of Gadget: client.MergeFrom without optimistic lock$`
}

// Twins: a change after the copy is sent; a helper given the object
// between may change it. Blind, as far as the function shows.
func changedAfter(ctx context.Context, c client.Client, g *v1.Gadget) error {
	g.Status.Phase = "A"
	base := g.DeepCopy()
	g.Status.Phase = "B"
	return c.Status().Patch(ctx, g, client.MergeFrom(base)) // want `^blind: Status\(\).Patch of Gadget: client.MergeFrom without optimistic lock$`
}

func helperBetween(ctx context.Context, c client.Client, g *v1.Gadget) error {
	g.Status.Phase = "A"
	base := g.DeepCopy()
	touch(g)
	return c.Status().Patch(ctx, g, client.MergeFrom(base)) // want `^blind: Status\(\).Patch of Gadget: client.MergeFrom without optimistic lock$`
}

func touch(g *v1.Gadget) { g.Status.Phase = "C" } // want touch:`^statusOnly\[0\]$`

// A late base of a kind with a patcher moves onto it: the patcher is made
// at the read, and Flush writes the changes the empty patch lost.
func lateMoved(ctx context.Context, c client.Client, key client.ObjectKey) error {
	w := &v1.Widget{}
	if err := c.Get(ctx, key, w); err != nil {
		return err
	}
	w.Status.Ready = true
	return c.Status().Patch(ctx, w, client.MergeFrom(w.DeepCopy())) // want `^empty: Status\(\).Patch of Widget: this patch sends nothing: the base is taken after the status changes at line 87; take it before them, or use the generated patcher$`
}

// Two writes of one object move together: the replayed one stays, so the
// first stays too, its reason naming the replay. The first write is no
// replay: the replayed status is assigned after it.
func replayedPair(ctx context.Context, c client.Client, desired *v1.Widget) error { // want replayedPair:`^statusOnly\[2\]$`
	return retry.RetryOnConflict(retry.DefaultRetry, func() error {
		latest := &v1.Widget{}
		if err := c.Get(ctx, client.ObjectKeyFromObject(desired), latest); err != nil {
			return err
		}
		latest.Status.Size = len(latest.Status.Conditions)
		if err := c.Status().Update(ctx, latest); err != nil { // want `^optimistic: Status\(\)\.Update of Widget: Update sends the object's resourceVersion \(not moved to the patcher: the status write of latest at line 105 replays a status decided before the re-read and stays, and the writes of latest in this function move together\)$`
			return err
		}
		latest.Status.Ready = desired.Status.Ready
		return c.Status().Update(ctx, latest) // want `^blind: Status\(\)\.Update of Widget: status replayed from before the re-read \(assigned from captured desired\) \(not moved to the patcher: the status assigned at line 104 is decided before the re-read at line 97, .*\)$`
	})
}

// Twin: a deferred write sends what changes until the function returns.
func deferred(ctx context.Context, c client.Client, g *v1.Gadget) error {
	g.Status.Phase = "A"
	defer c.Status().Patch(ctx, g, client.MergeFrom(g.DeepCopy())) // want `^blind: Status\(\)\.Patch of Gadget: client.MergeFrom without optimistic lock$`
	g.Status.Phase = "B"
	return nil
}
