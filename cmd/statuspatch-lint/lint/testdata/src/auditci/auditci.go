// Package auditci: -ci reports only the blind and unresolved writes that
// no directive allows.
package auditci

import (
	"context"

	v1 "example.com/api/v1"
	"github.com/statuspatch/statuspatch/patcher"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

func writes(ctx context.Context, c client.Client, w *v1.Widget, p *patcher.Patcher[*v1.Widget]) {
	_ = c.Status().Patch(ctx, w, client.MergeFromWithOptions(w, client.MergeFromWithOptimisticLock{}))
	_ = c.Status().Update(ctx, w)
	_ = p.Flush(ctx)
	_ = c.Status().Patch(ctx, w, client.MergeFrom(w))                                 // want `^blind: Status\(\).Patch of Widget: client.MergeFrom without optimistic lock$`
	_ = c.Status().Patch(ctx, w, client.RawPatch(types.MergePatchType, []byte(`{}`))) // want `^unresolved: Status\(\).Patch of Widget: client.RawPatch$`
	//statuspatch:allow the only writer of this status
	_ = c.Status().Patch(ctx, w, client.MergeFrom(w))
	//statuspatch:allow // want `statuspatch:allow needs a reason`
	_ = c.Status().Patch(ctx, w, client.MergeFrom(w)) // want `^blind: `
}
