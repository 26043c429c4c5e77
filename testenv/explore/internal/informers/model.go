package informers

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/fields"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/selection"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/apiutil"

	"github.com/statuspatch/statuspatch/testenv/explore/internal/book"
	"github.com/statuspatch/statuspatch/testenv/explore/internal/recmgr"
)

// Model is one schedule's manager cache: what its informers served, the
// oldest version each object may be served at since a cold restart, and
// the field indexes Setup registered. Reads of uncached kinds do not come
// here: they go to the server.
type Model struct {
	// Book holds every version of every object the schedule met.
	Book *book.Book
	// Scheme is the server client's scheme, which types list items and
	// the objects the indexes take.
	Scheme *runtime.Scheme
	// View is what each of this process's informers served.
	View View
	// Floor is, per object, the oldest version the cache can serve since
	// a cold restart.
	Floor map[book.Key]int
	// Indexes are the field indexes Setup registered (internal/recmgr
	// keeps them); Indexed are their informers, which a manager starts
	// with its cache, before it is elected.
	Indexes recmgr.Indexes
	Indexed map[Key]bool
	// items are the versions converted to typed list items (items.go).
	items typedItems
}

// Lowest is the oldest version of k a cached read through the informer
// of rep may see now: none older than the cold-restart floor or than
// what that informer served.
func (m *Model) Lowest(k book.Key, inf Key) int {
	return max(m.Floor[k], m.View.Lowest(k, inf.Rep))
}

// Floors lists the cold-cache floors of keys, in that order, for the
// state hash (nil before any cold restart).
func (m *Model) Floors(keys []book.Key) []int {
	if len(m.Floor) == 0 {
		return nil
	}
	out := make([]int, len(keys))
	for i, k := range keys {
		out[i] = m.Floor[k]
	}
	return out
}

// Fetch lists from the server through c (a cached List, api false, with a
// field selector through the indexes, as the cache serves it) and
// observes every item the book does not hold at the version listed, and
// every object of the list's scope the book holds that the answer left
// out: all are known after. It returns the keys of the items, in the
// server's order.
func (m *Model) Fetch(ctx context.Context, c client.WithWatch, list client.ObjectList, api bool, opts []client.ListOption) ([]book.Key, error) {
	handled := false
	if !api {
		var err error
		if handled, err = m.indexedList(ctx, c, list, opts); err != nil {
			return nil, err
		}
	}
	if !handled {
		if err := c.List(ctx, list, opts...); err != nil {
			return nil, err
		}
	}
	items, err := meta.ExtractList(list)
	if err != nil {
		return nil, fmt.Errorf("explore: %T: %w", list, err)
	}
	var keys []book.Key
	for _, it := range items {
		o, ok := it.(client.Object)
		if !ok {
			continue
		}
		k, err := m.Book.KeyOf(o, client.ObjectKeyFromObject(o))
		if err != nil {
			return nil, err
		}
		if !m.Book.Holds(k, o) {
			if _, _, err := m.Book.Observe(ctx, k); err != nil {
				return nil, err
			}
		}
		keys = append(keys, k)
	}
	if err := m.observeLeftOut(ctx, list, opts, keys); err != nil {
		return nil, err
	}
	return keys, nil
}

// observeLeftOut reads, after a List sent to the server, every object of
// the list's kind the book holds present in its scope that the answer
// left out: the server no longer holds it there (deleted, relabelled).
// The book learns it as it learns anything, by a read of the newest, and
// the history records it. A write whose answer the book did not take
// (an error after a delete stored, a failed read after it) leaves such
// an object; the List's answer says the book is behind, and a List served
// from the book later shows what this one did.
func (m *Model) observeLeftOut(ctx context.Context, list client.ObjectList, opts []client.ListOption, listed []book.Key) error {
	lo := (&client.ListOptions{}).ApplyOptions(opts)
	if _, ok := Scope(lo); !ok {
		return nil
	}
	gvk, err := ListKind(list, m.Scheme)
	if err != nil {
		return err
	}
	match, ok := m.Matcher(gvk, lo)
	if !ok {
		return nil
	}
	for _, k := range m.Book.Keys() {
		if k.GVK != gvk || slices.Contains(listed, k) {
			continue
		}
		h := m.Book.History(k)
		if c := h.Versions[h.Newest()]; c == nil || !match(k, c) {
			continue
		}
		if _, _, err := m.Book.Observe(ctx, k); err != nil {
			return err
		}
	}
	return nil
}

// Field indexes. A manager's cache serves a List with a field selector
// from an index the operator registers with IndexField (in its
// SetupWithManager, usually); the API server serves only a few fields
// (metadata.name and metadata.namespace on custom resources). The
// recording manager keeps the indexes Scenario.Setup registers, and a
// cached List with a field selector is served as the cache would: the
// server's list without the selector, filtered through the index. A field
// without an index fails as the cache fails, with an error that says so.

// indexedList serves a cached List whose options carry a field selector
// (handled reports that they do) from the registered indexes.
func (m *Model) indexedList(ctx context.Context, c client.WithWatch, list client.ObjectList, opts []client.ListOption) (handled bool, err error) {
	lo := (&client.ListOptions{}).ApplyOptions(opts)
	if lo.FieldSelector == nil || lo.FieldSelector.Empty() {
		return false, nil
	}
	gvk, err := apiutil.GVKForObject(list, m.Scheme)
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
		fn := m.Indexes[gvk][req.Field]
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
