package informers

import (
	"fmt"
	"strconv"

	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/statuspatch/statuspatch/testenv/explore/internal/book"
)

// An informer's store, read for how far it has synced
// (LastStoreSyncResourceVersion): Cluster API's controllers wait until the
// informer of a kind they wrote has synced past their write's
// resourceVersion (internal/recmgr's store.go). The store is the
// informer's, so it has synced to a point of the schedule, as a cached
// List of the whole kind through that informer is served from one
// (Points): the explorer chooses the point as it chooses a List's (one
// lag of the seed, within the informer's open window, the drain's the
// newest), and the informer has then served each object of the kind at
// its version there (View.Saw): later cached reads through it see that
// version or a newer one. The store reports the newest resourceVersion
// of the kind's versions recorded up to the point: one the server
// answered (a write's answer, a read), which the informer has delivered.
// A real store may report more (a deletion's, whose resourceVersion the
// book does not hold, a bookmark's): never less, so a controller that
// waits on it waits no shorter than on a real one, and at the newest
// point, the drain's, the store holds every write the book recorded.

// StoreSynced is the resourceVersion the store of the informer of gvk in
// obj's representation has synced to, at a point the explorer chooses
// ("" when the book holds no version of the kind there); behind reports
// that the point chosen is not the newest (a lag over 0).
func (c *Cache) StoreSynced(gvk schema.GroupVersionKind, obj runtime.Object) (rv string, behind bool, err error) {
	c.StartInformer(gvk, obj)
	rep := RepOf(obj)
	inf := Key{GVK: gvk, Rep: rep}
	kind := c.Model.Kind(gvk)
	all := func(book.Key, map[string]any) bool { return true }
	versions, _ := c.Setup.Bounds()
	points, cut := c.Model.Points(kind, rep, all, c.windowSeq(inf), versions)
	if cut {
		c.listCut = true // an older point was there
	}
	if len(points) == 0 {
		return "", false, fmt.Errorf("explore: the store of the %s informer: no point of the schedule to serve it from", gvk.Kind)
	}
	stay := c.windowListLag(inf, points)
	lag := c.ChooseLag(len(points), stay)
	p := points[lag]
	c.NoteWindow(inf, lag, stay, c.Model.ListSeq(points, lag), func() string {
		return fmt.Sprintf("the store of the %s informer %s behind", gvk.Kind, plural(lag, "list"))
	})
	var newest uint64
	for _, k := range kind {
		h := c.Model.Book.History(k)
		c.Model.View.Saw(k, rep, book.VersionAt(h, p.Seq))
		for i, s := range h.Seqs {
			if s > p.Seq || h.RVs[i] == "" {
				continue
			}
			n, err := strconv.ParseUint(h.RVs[i], 10, 64)
			if err != nil {
				return "", false, fmt.Errorf("explore: the store of the %s informer: %s's resourceVersion %q is not a number, "+
					"so the explorer cannot tell how far the store has synced: %w", gvk.Kind, k, h.RVs[i], err)
			}
			if n > newest {
				newest, rv = n, h.RVs[i]
			}
		}
	}
	return rv, lag > 0, nil
}
