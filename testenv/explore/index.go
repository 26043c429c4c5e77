package explore

import (
	"github.com/statuspatch/statuspatch/testenv/explore/internal/recmgr"

	"context"
	"fmt"
	"strings"

	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/fields"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/selection"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/apiutil"
)

// Field indexes. A manager's cache serves a List with a field selector
// from an index the operator registers with IndexField (in its
// SetupWithManager, usually); the API server serves only a few fields
// (metadata.name and metadata.namespace on custom resources). The
// recording manager keeps the indexes Scenario.Setup registers, and a
// cached List with a field selector is served as the cache would: the
// server's list without the selector, filtered through the index. A field
// without an index fails as the cache fails, with an error that says so.

// fieldIndexes are the indexes Setup registered, by kind and field
// (internal/recmgr keeps them).
type fieldIndexes = recmgr.Indexes

// indexedList serves a cached List whose options carry a field selector
// (handled reports that they do) from the registered indexes.
func (cm *cacheModel) indexedList(ctx context.Context, c client.WithWatch, list client.ObjectList, opts []client.ListOption) (handled bool, err error) {
	lo := (&client.ListOptions{}).ApplyOptions(opts)
	if lo.FieldSelector == nil || lo.FieldSelector.Empty() {
		return false, nil
	}
	gvk, err := apiutil.GVKForObject(list, cm.server.Scheme())
	if err != nil {
		return true, fmt.Errorf("explore: %T: %w", list, err)
	}
	gvk.Kind = strings.TrimSuffix(gvk.Kind, "List")
	type want struct {
		fn    client.IndexerFunc
		value string
	}
	var wants []want
	for _, req := range lo.FieldSelector.Requirements() {
		if req.Operator != selection.Equals && req.Operator != selection.DoubleEquals {
			return true, fmt.Errorf("explore: cached List of %s with field selector %q: the cache serves only exact matches (field=value)", gvk.Kind, lo.FieldSelector)
		}
		fn := cm.indexes[gvk][req.Field]
		if fn == nil {
			return true, fmt.Errorf("explore: cached List of %s with field selector %q: no index on %q; a manager's cache fails so too: register it with mgr.GetFieldIndexer().IndexField in Scenario.Setup (the explorer sees only the indexes Setup registers)",
				gvk.Kind, lo.FieldSelector, req.Field)
		}
		wants = append(wants, want{fn: fn, value: req.Value})
	}
	plain := *lo
	plain.FieldSelector = fields.Everything()
	if err := c.List(ctx, list, &plain); err != nil {
		return true, err
	}
	items, err := meta.ExtractList(list)
	if err != nil {
		return true, fmt.Errorf("explore: %T: %w", list, err)
	}
	var kept []runtime.Object
	for _, it := range items {
		o, ok := it.(client.Object)
		if !ok {
			continue
		}
		match := true
		for _, w := range wants {
			found := false
			for _, v := range w.fn(o) {
				found = found || v == w.value
			}
			match = match && found
		}
		if match {
			kept = append(kept, it)
		}
	}
	if err := meta.SetList(list, kept); err != nil {
		return true, fmt.Errorf("explore: %T: %w", list, err)
	}
	return true, nil
}
