package patcher

import (
	"context"
	"fmt"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// serverHasStatus reads the object as the server stores it (unstructured,
// so with the fields the Go type lacks) and reports whether it holds a
// status object. The read must be at the base's resourceVersion: at any
// other, a write from the base would conflict (or the reader lags), so that
// is a Conflict, and Retry re-reads.
func (m merger[T]) serverHasStatus(ctx context.Context) (bool, error) {
	p := m.p
	gvk, err := p.client.GroupVersionKindFor(p.obj)
	if err != nil {
		return false, fmt.Errorf("statuspatch: %s: %w", p.id(), err)
	}
	u := &unstructured.Unstructured{}
	u.SetGroupVersionKind(gvk)
	var reader client.Reader = p.client
	if p.opts.apiReader != nil {
		reader = p.opts.apiReader
	}
	if err := reader.Get(ctx, client.ObjectKeyFromObject(p.obj), u); err != nil {
		return false, fmt.Errorf("statuspatch: re-read %s: %w", p.id(), withCause(ctx, err))
	}
	p.tracker.record().Observe(u.GetResourceVersion())
	if rv, base := u.GetResourceVersion(), p.base.GetResourceVersion(); rv != base {
		return false, p.conflict(fmt.Sprintf("a write of null from a zero status must know whether the server holds a status the Go type does not see; "+
			"the re-read returned resourceVersion %s, not the base's %s", rv, base))
	}
	status, ok := u.Object["status"].(map[string]any)
	return ok && status != nil, nil
}
