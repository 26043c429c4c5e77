// Package controllers writes status with patches built in crossmod/util:
// their verdicts come from util's facts.
package controllers

import (
	"context"

	"crossmod/util"
	"crossmod/wrap"
	v1 "example.com/api/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

func write(ctx context.Context, c client.Client, w *v1.Widget, h util.Helper, data []byte) error {
	_ = c.Status().Patch(ctx, w, util.NewPatch(w))       // want `^blind: Status\(\).Patch of Widget: util.NewPatch returns client.MergeFrom without optimistic lock$`
	_ = c.Status().Patch(ctx, w, util.NewLockedPatch(w)) // want `^optimistic: Status\(\).Patch of Widget: util.NewLockedPatch returns MergeFromWithOptimisticLock$`
	p, err := util.PatchOrError(w)
	if err != nil {
		return err
	}
	_ = c.Status().Patch(ctx, w, p)                    // want `^blind: Status\(\).Patch of Widget: util.PatchOrError returns client.MergeFrom`
	_ = c.Status().Patch(ctx, w, util.Either(w, true)) // want `^blind: Status\(\).Patch of Widget: util.Either returns client.MergeFrom`
	_ = c.Status().Patch(ctx, w, util.Raw(data))       // want `^unresolved: Status\(\).Patch of Widget: util.Raw returns client.RawPatch$`
	_ = c.Status().Patch(ctx, w, h.Locked(w))          // want `^optimistic: Status\(\).Patch of Widget: util.Locked returns MergeFromWithOptimisticLock$`
	_ = c.Status().Patch(ctx, w, util.Reexported(w))   // want `^blind: Status\(\).Patch of Widget: util.Reexported returns client.MergeFrom without optimistic lock$`
	return c.Status().Patch(ctx, w, wrap.Patch(w))     // want `^blind: Status\(\).Patch of Widget: wrap.Patch returns util.NewPatch returns client.MergeFrom without optimistic lock$`
}
