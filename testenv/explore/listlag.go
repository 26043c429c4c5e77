package explore

import (
	"github.com/statuspatch/statuspatch/testenv/explore/internal/informers"

	"context"
	"fmt"

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
	if ok && cm.lists.Covers(gvk.GroupKind(), scope) && informers.OneVersion(cm.model.Book, gvk) {
		if handled, err := cm.listLagged(list, gvk, lo, true); err != nil || handled {
			return err
		}
	}
	keys, err := cm.fetchList(ctx, c, list, false, opts)
	if err != nil {
		return err
	}
	if ok {
		cm.lists.Cover(gvk.GroupKind(), scope)
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
	kind := cm.model.Kind(gvk)
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
	window := cm.noteWindow(inf, lag, stay, cm.model.ListSeq(points, lag), func() string {
		return fmt.Sprintf("a List of %s %s behind", gvk.Kind, plural(lag, "list"))
	})
	if lag > 0 || fromBook { // at lag 0, the server's list stands
		if err := cm.model.SetListAt(list, gvk, p); err != nil {
			return true, err
		}
	}
	if fromBook {
		list.SetResourceVersion(cm.lists.Newest(gvk.GroupKind()))
	}
	for _, l := range cm.model.ServeList(kind, rep, match, p) {
		cm.trace.cur.step.Reads = append(cm.trace.cur.step.Reads, Read{Object: l.Key.String(), Version: l.Version + 1, Newest: l.Newest + 1, List: true, Missing: l.Missing, Informer: rep.String(),
			OtherAPIServer: l.PastLeader + 1, Window: window})
		if l.Version > cm.trace.cur.seenOrNone(l.Key) {
			cm.trace.cur.seen[l.Key] = l.Version
		}
	}
	return true, nil
}
