// Package markutil holds exported status helpers the reconcilers of
// another package call (migratealone): analyzed alone (vet,
// golangci-lint), an Update's write stays, though the whole module's
// driver moves it with its callers (HelperFact.Alone); a Patch from the
// caller's base, or a helper used other than in a call, stays in both,
// and says why.
package markutil

import (
	"context"

	v1 "example.com/op/api/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// MarkReady records that the widget is ready.
func MarkReady(ctx context.Context, c client.Client, w *v1.Widget) error { // want MarkReady:"why" MarkReady:"helper\\(obj 2, client 1 dropped, WidgetStatusPatcher, alone at markutil\\.go:\\d+\\)"
	w.Status.Ready = true
	return c.Status().Update(ctx, w) // want `\(not moved to the patcher: w is a parameter of MarkReady: MarkReady is exported and only this package is analyzed: a caller in another package would not be changed \(statuspatch-lint -fix on the whole module moves it with them when every caller's write can move\); by hand: `
}

// MarkSized records the widget's size with a merge patch from the
// caller's base.
func MarkSized(ctx context.Context, c client.Client, w, base *v1.Widget, size int) error { // want MarkSized:"why"
	w.Status.Size = size
	return c.Status().Patch(ctx, w, client.MergeFrom(base)) // want `\(not moved to the patcher: w is a parameter of MarkSized: MarkSized is exported and takes its base as a parameter: -fix moves an exported helper's callers only for an Update; by hand: `
}

// markUsed is a use of MarkUsed other than a call: the module keeps its
// write too, and its reason says why in both views.
var markUsed = MarkUsed

// MarkUsed records that the widget is ready, for markUsed's users.
func MarkUsed(ctx context.Context, c client.Client, w *v1.Widget) error { // want MarkUsed:"why"
	w.Status.Ready = true
	return c.Status().Update(ctx, w) // want `\(not moved to the patcher: w is a parameter of MarkUsed: it is used at line \d+ other than in a call\)$`
}
