// Package rawpatch reproduces util/patch.(*Helper).patchStatus of
// cluster-api v1.13: the merge patch is computed with
// client.MergeFrom(before).Data(after), compared with "{}", and sent as
// client.RawPatch. The raw patch is as blind (or optimistic) as the patch
// its data comes from.
package rawpatch

import (
	"bytes"
	"context"
	"encoding/json"

	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

type Helper struct {
	client client.Client
}

func (h *Helper) calculatePatch(obj client.Object) (client.Object, client.Object, error) {
	return obj, obj, nil
}

func (h *Helper) patchStatus(ctx context.Context, obj client.Object) error {
	beforeObject, afterObject, err := h.calculatePatch(obj)
	if err != nil {
		return err
	}
	data, err := client.MergeFrom(beforeObject).Data(afterObject)
	if err != nil {
		return err
	}
	if bytes.Equal(data, []byte("{}")) {
		return nil
	}
	return h.client.Status().Patch(ctx, afterObject, client.RawPatch(types.MergePatchType, data)) // want `^blind: Status\(\).Patch of client.Object: client.RawPatch of client.MergeFrom without optimistic lock$`
}

// With the lock, the data carries the resourceVersion.
func (h *Helper) patchStatusLocked(ctx context.Context, before, after client.Object) error {
	p := client.MergeFromWithOptions(before, client.MergeFromWithOptimisticLock{})
	data, err := p.Data(after)
	if err != nil {
		return err
	}
	return h.client.Status().Patch(ctx, after, client.RawPatch(types.MergePatchType, data)) // want `^optimistic: Status\(\).Patch of client.Object: client.RawPatch of MergeFromWithOptimisticLock$`
}

// Data from elsewhere stays unresolved.
func (h *Helper) patchStatusJSON(ctx context.Context, obj client.Object, status any) error {
	data, err := json.Marshal(map[string]any{"status": status})
	if err != nil {
		return err
	}
	return h.client.Status().Patch(ctx, obj, client.RawPatch(types.MergePatchType, data)) // want `^unresolved: Status\(\).Patch of client.Object: client.RawPatch$`
}

// A patch value of unknown origin: as unresolved as the patch itself.
func (h *Helper) patchStatusWith(ctx context.Context, obj client.Object, p client.Patch) error {
	data, err := p.Data(obj)
	if err != nil {
		return err
	}
	return h.client.Status().Patch(ctx, obj, client.RawPatch(types.MergePatchType, data)) // want `^unresolved: Status\(\).Patch of client.Object: client.RawPatch of patch from parameter p of patchStatusWith \(no call site in package\)$`
}
