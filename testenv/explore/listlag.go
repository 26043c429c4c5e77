package explore

import (
	"github.com/statuspatch/statuspatch/testenv/explore/internal/book"
	"github.com/statuspatch/statuspatch/testenv/explore/internal/informers"

	"context"
	"fmt"
	"slices"

	"k8s.io/apimachinery/pkg/runtime/schema"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// A cached List is served by the kind's informer of the list's
// representation, which may lag: the points it may be served from, each
// a list of the kind's objects at their versions then, are
// internal/informers' (Model.Points); the explorer chooses one, as it
// chooses a Get's lag (one lag of the seed), within an open window
// (window.go), and records the reads.

// cachedList serves a cached List of a cached kind gvk: from the book
// where it holds every object the List selects (listfresh.go), otherwise
// with the server's newest items.
func (cm *cacheModel) cachedList(ctx context.Context, c client.WithWatch, list client.ObjectList, gvk schema.GroupVersionKind, opts []client.ListOption) error {
	cm.startInformer(gvk, list)
	lo := (&client.ListOptions{}).ApplyOptions(opts)
	scope, ok := informers.Scope(lo)
	if ok && cm.lists.covers(gvk.GroupKind(), scope) && informers.OneVersion(cm.model.Book, gvk) {
		if handled, err := cm.listLagged(list, gvk, lo, true); err != nil || handled {
			return err
		}
	}
	keys, err := cm.fetchList(ctx, c, list, false, opts)
	if err != nil {
		return err
	}
	if ok {
		cm.lists.cover(gvk.GroupKind(), scope)
	}
	handled, err := cm.listLagged(list, gvk, lo, false)
	if err != nil || handled {
		return err
	}
	cm.recordNewest(keys, list, false)
	return nil
}

// listLagged serves a cached List of kind gvk, whose newest items (from
// the server, unless fromBook: the book's) are in list, from a point the
// explorer chooses. It records the reads. handled is false when the list
// cannot be lagged (a Limit, a field selector without its index, an item
// type it cannot build): the caller serves the newest.
func (cm *cacheModel) listLagged(list client.ObjectList, gvk schema.GroupVersionKind, lo *client.ListOptions, fromBook bool) (handled bool, err error) {
	if lo.Limit > 0 || lo.Continue != "" || cm.trace.cur == nil {
		return false, nil
	}
	match, ok := cm.model.Matcher(gvk, lo)
	if !ok {
		return false, nil
	}
	var kind []book.Key
	for _, k := range cm.model.Book.Keys() {
		if k.GVK == gvk {
			kind = append(kind, k)
		}
	}
	rep := repOf(list)
	inf := informerKey{GVK: gvk, Rep: rep}
	points, cut := cm.model.Points(kind, rep, match, cm.windowSeq(inf), cm.ex.o.Versions)
	if cut {
		cm.listCut = true // a different, older list was there
	}
	if len(points) == 0 {
		return false, nil
	}
	stay := cm.windowListLag(inf, points)
	lag := cm.chooseLag(len(points), stay)
	p := points[lag]
	seq := cm.model.Book.Seq() // the newest point that gives the list read
	if lag > 0 {
		seq = points[lag-1].Seq - 1
	}
	window := cm.noteWindow(inf, lag, stay, seq, func() string {
		return fmt.Sprintf("a List of %s %s behind", gvk.Kind, plural(lag, "list"))
	})
	if lag > 0 || fromBook { // at lag 0, the server's list stands
		if err := cm.model.SetListAt(list, gvk, p); err != nil {
			return true, err
		}
	}
	if fromBook {
		list.SetResourceVersion(cm.lists.newest(gvk.GroupKind()))
	}
	for _, k := range kind {
		h := cm.model.Book.History(k)
		v := book.VersionAt(h, p.Seq)
		cm.model.View.Saw(k, rep, v)
		listed := slices.Contains(p.Items, k)
		if !listed && (h.Versions[h.Newest()] == nil || !match(k, h.Versions[h.Newest()])) {
			continue // neither listed nor in the newest list
		}
		cm.trace.cur.step.Reads = append(cm.trace.cur.step.Reads, Read{Object: k.String(), Version: v + 1, Newest: h.Newest() + 1, List: true, Missing: !listed, Informer: rep.String(),
			OtherAPIServer: cm.model.View.PastLeader(k, rep, v) + 1, Window: window})
		if v > cm.trace.cur.seenOrNone(k) {
			cm.trace.cur.seen[k] = v
		}
	}
	return true, nil
}
