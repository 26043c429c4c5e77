package informers

import (
	"context"
	"fmt"

	"k8s.io/apimachinery/pkg/runtime/schema"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// A cached List is served by the kind's informer of the list's
// representation, which may lag: the points it may be served from, each
// a list of the kind's objects at their versions then, are
// Model.Points; the cache chooses one, as it
// chooses a Get's lag (one lag of the seed), within an open window
// (stale.go), and records the reads.

// CachedList serves a cached List of a cached kind gvk: from the book
// where it holds every object the List selects (Floors.Covers), otherwise
// with the server's newest items.
func (c *Cache) CachedList(ctx context.Context, cl client.WithWatch, list client.ObjectList, gvk schema.GroupVersionKind, opts []client.ListOption) error {
	c.StartInformer(gvk, list)
	lo := (&client.ListOptions{}).ApplyOptions(opts)
	scope, ok := Scope(lo)
	if ok && c.Lists.Covers(gvk.GroupKind(), scope) && OneVersion(c.Model.Book, gvk) {
		if handled, err := c.listLagged(list, gvk, lo, true); err != nil || handled {
			return err
		}
	}
	keys, err := c.fetchList(ctx, cl, list, false, opts)
	if err != nil {
		return err
	}
	if ok {
		c.Lists.Cover(gvk.GroupKind(), scope)
	}
	handled, err := c.listLagged(list, gvk, lo, false)
	if err != nil || handled {
		return err
	}
	c.recordNewest(keys, list, false)
	return nil
}

// listLagged serves a cached List of kind gvk, whose newest items (from
// the server, unless fromBook: the book's) are in list, from a point the
// explorer chooses. It records the reads. handled is false when the list
// cannot be lagged (a Limit, a field selector without its index, an item
// type it cannot build): the caller serves the newest.
func (c *Cache) listLagged(list client.ObjectList, gvk schema.GroupVersionKind, lo *client.ListOptions, fromBook bool) (handled bool, err error) {
	if i, _ := c.Trace.Step(); lo.Limit > 0 || lo.Continue != "" || i == 0 {
		return false, nil
	}
	match, ok := c.Model.Matcher(gvk, lo)
	if !ok {
		return false, nil
	}
	kind := c.Model.Kind(gvk)
	rep := RepOf(list)
	inf := Key{GVK: gvk, Rep: rep}
	versions, _ := c.Setup.Bounds()
	points, cut := c.Model.Points(kind, rep, match, c.windowSeq(inf), versions)
	if cut {
		c.listCut = true // a different, older list was there
	}
	if len(points) == 0 {
		return false, nil
	}
	stay := c.windowListLag(inf, points)
	lag := c.ChooseLag(len(points), stay)
	c.Trace.Served(gvk.Kind, len(points), lag)
	p := points[lag]
	window := c.NoteWindow(inf, lag, stay, c.Model.ListSeq(points, lag), func() string {
		return fmt.Sprintf("a List of %s %s behind", gvk.Kind, plural(lag, "list"))
	})
	if lag > 0 || fromBook { // at lag 0, the server's list stands
		if err := c.Model.SetListAt(list, gvk, p); err != nil {
			return true, err
		}
	}
	if fromBook {
		list.SetResourceVersion(c.Lists.Newest(gvk.GroupKind()))
	}
	for _, l := range c.Model.ServeList(kind, rep, match, p) {
		c.Trace.Read(Read{Key: l.Key, Version: l.Version + 1, Newest: l.Newest + 1, List: true, Missing: l.Missing, Informer: rep.String(),
			OtherAPIServer: l.PastLeader + 1, Window: window})
	}
	return true, nil
}
