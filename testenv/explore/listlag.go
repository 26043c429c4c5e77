package explore

import (
	"github.com/statuspatch/statuspatch/testenv/explore/internal/book"

	"context"
	"fmt"
	"reflect"
	"slices"
	"strings"

	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/apiutil"
)

// A cached List is served by the kind's informer of the list's
// representation (informer.go), which may lag: it shows the kind's
// objects as they were at one point of the schedule (history seqs), each
// at its version then, the objects created since left out and the ones
// deleted since still in. The explorer chooses the point among those that
// give a different list, at most Options.Versions of them, as it chooses
// a Get's lag (one lag of the seed). A point is one the informer can be
// at: no object of the kind older than that informer has served. Once
// chosen, the List has served each object of the kind at its version
// then, so later cached reads through the same informer (Gets and Lists,
// in this step or a later one) see that version or a newer one, never an
// older: the informer may have moved on between two calls of one
// reconcile, as a real one does (KubeRay lists its head Pods, then reads
// the Pod its expectations wait for).

// listPoint is a point a cached List of one kind may be served from.
type listPoint struct {
	seq   int
	items []book.Key // the objects listed, in the server's order
}

// cachedList serves a cached List of a cached kind gvk: from the book
// where it holds every object the List selects (listfresh.go), otherwise
// with the server's newest items.
func (cm *cacheModel) cachedList(ctx context.Context, c client.WithWatch, list client.ObjectList, gvk schema.GroupVersionKind, opts []client.ListOption) error {
	cm.startInformer(gvk, list)
	lo := (&client.ListOptions{}).ApplyOptions(opts)
	scope, ok := listScope(lo)
	if ok && cm.lists.covers(gvk.GroupKind(), scope) && oneVersion(cm.book, gvk) {
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

// oneVersion reports that the book holds the objects of gvk's kind under
// gvk's version only: the book serves a List of the version it holds.
func oneVersion(b *book.Book, gvk schema.GroupVersionKind) bool {
	for _, k := range b.Keys() {
		if k.GVK.GroupKind() == gvk.GroupKind() && k.GVK.Version != gvk.Version {
			return false
		}
	}
	return true
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
	match, ok := cm.listMatcher(gvk, lo)
	if !ok {
		return false, nil
	}
	var kind []book.Key
	for _, k := range cm.book.Keys() {
		if k.GVK == gvk {
			kind = append(kind, k)
		}
	}
	rep := repOf(list)
	inf := informerKey{gvk, rep}
	points := cm.listPoints(kind, rep, match, cm.windowSeq(inf))
	if len(points) == 0 {
		return false, nil
	}
	stay := cm.windowListLag(inf, points)
	lag := cm.chooseLag(len(points), stay)
	p := points[lag]
	seq := cm.book.Seq() // the newest point that gives the list read
	if lag > 0 {
		seq = points[lag-1].seq - 1
	}
	window := cm.noteWindow(inf, lag, stay, seq, func() string {
		return fmt.Sprintf("a List of %s %s behind", gvk.Kind, plural(lag, "list"))
	})
	if lag > 0 || fromBook { // at lag 0, the server's list stands
		if err := cm.setListAt(list, gvk, p); err != nil {
			return true, err
		}
	}
	if fromBook {
		list.SetResourceVersion(cm.lists.newest(gvk.GroupKind()))
	}
	for _, k := range kind {
		h := cm.book.History(k)
		v := book.VersionAt(h, p.seq)
		cm.cache.saw(k, rep, v)
		listed := slices.Contains(p.items, k)
		if !listed && (h.Versions[h.Newest()] == nil || !match(k, h.Versions[h.Newest()])) {
			continue // neither listed nor in the newest list
		}
		cm.trace.cur.step.Reads = append(cm.trace.cur.step.Reads, Read{Object: k.String(), Version: v + 1, Newest: h.Newest() + 1, List: true, Missing: !listed, Informer: rep.String(),
			OtherAPIServer: cm.cache.pastLeader(k, rep, v) + 1, Window: window})
		if v > cm.trace.cur.seenOrNone(k) {
			cm.trace.cur.seen[k] = v
		}
	}
	return true, nil
}

// setListAt sets list's items to the versions of point p.
func (cm *cacheModel) setListAt(list client.ObjectList, gvk schema.GroupVersionKind, p listPoint) error {
	objs := make([]runtime.Object, 0, len(p.items))
	for _, k := range p.items {
		h := cm.book.History(k)
		o, err := cm.items.item(list, cm.server.Scheme(), gvk, k, h, book.VersionAt(h, p.seq))
		if err != nil {
			return fmt.Errorf("explore: cached List of %s: %s: %w", gvk.Kind, k, err)
		}
		objs = append(objs, o)
	}
	if err := meta.SetList(list, objs); err != nil {
		return fmt.Errorf("explore: cached List of %s: %w", gvk.Kind, err)
	}
	return nil
}

// listPoints are the points a cached List of the objects kind (all of its
// kind the schedule knows) may be served from, newest first, one per
// different list, each the oldest point that gives it: at most
// Options.Versions (more when an open window's point, window, is older:
// the window serves the list there), none older than what the informer
// of rep served or the cold-restart floor.
func (cm *cacheModel) listPoints(kind []book.Key, rep representation, match func(book.Key, map[string]any) bool, window int) []listPoint {
	seqs := []int{cm.book.Seq()}
	for _, k := range kind {
		for i, s := range cm.book.History(k).Seqs {
			if i > 0 {
				seqs = append(seqs, s-1) // just before that version
			}
		}
	}
	slices.Sort(seqs)
	seqs = slices.Compact(seqs)
	slices.Reverse(seqs)
	var out []listPoint
	last := ""
	for _, seq := range seqs {
		var items []book.Key
		var sig strings.Builder
		for _, k := range kind {
			h := cm.book.History(k)
			v := book.VersionAt(h, seq)
			if v < max(cm.floor[k], cm.cache.lowest(k, rep)) {
				return out // older points are older still
			}
			if c := h.Versions[v]; c != nil && match(k, c) {
				items = append(items, k)
				fmt.Fprintf(&sig, "%s@%d;", k, v)
			}
		}
		if sig.String() == last && len(out) > 0 {
			// The same list from an older point: the informer may be
			// there as well, so the point is the oldest that gives it.
			// What the List leaves out (other labels) is then seen at its
			// oldest, and pins no newer version.
			out[len(out)-1].seq = seq
			continue
		}
		if len(out) >= cm.ex.o.Versions && (window < 0 || out[len(out)-1].seq <= window) {
			cm.listCut = true // a different, older list was there
			break
		}
		last = sig.String()
		slices.SortFunc(items, func(a, b book.Key) int { return strings.Compare(a.NN.String(), b.NN.String()) })
		out = append(out, listPoint{seq: seq, items: items})
	}
	return out
}

// listMatcher returns what selects an object version into a list with lo,
// or false when the explorer cannot tell (a field selector without an
// index Setup registered).
func (cm *cacheModel) listMatcher(gvk schema.GroupVersionKind, lo *client.ListOptions) (func(book.Key, map[string]any) bool, bool) {
	sel := lo.LabelSelector
	if sel == nil {
		sel = labels.Everything()
	}
	type want struct {
		fn    client.IndexerFunc
		value string
	}
	var wants []want
	if lo.FieldSelector != nil && !lo.FieldSelector.Empty() {
		for _, req := range lo.FieldSelector.Requirements() {
			fn := cm.indexes[gvk][req.Field]
			if fn == nil {
				return nil, false
			}
			wants = append(wants, want{fn: fn, value: req.Value})
		}
	}
	if len(wants) > 0 {
		if _, err := cm.server.Scheme().New(gvk); err != nil {
			return nil, false // indexers take typed objects
		}
	}
	return func(k book.Key, content map[string]any) bool {
		u := unstructured.Unstructured{Object: content}
		if lo.Namespace != "" && k.NN.Namespace != lo.Namespace || !sel.Matches(labels.Set(u.GetLabels())) {
			return false
		}
		if len(wants) == 0 {
			return true
		}
		typed, err := cm.server.Scheme().New(gvk)
		if err != nil {
			return false
		}
		o, ok := typed.(client.Object)
		if !ok || runtime.DefaultUnstructuredConverter.FromUnstructured(runtime.DeepCopyJSON(content), o) != nil {
			return false
		}
		for _, w := range wants {
			if !slices.Contains(w.fn(o), w.value) {
				return false
			}
		}
		return true
	}, true
}

// typedItems are the versions served as items of typed lists, each
// converted once: KubeRay lists its Pods several times a reconcile, and
// the conversion from the book's content (FromUnstructured) was a third
// of the explorer's CPU in its search; a deep copy of the typed object
// is a fraction of that.
type typedItems struct {
	m map[typedItem]runtime.Object
}

type typedItem struct {
	key book.Key
	v   int
	rv  string
	t   reflect.Type
}

// item is listItem of k's version v in h, for a typed list from the
// version converted before.
func (ti *typedItems) item(list client.ObjectList, scheme *runtime.Scheme, gvk schema.GroupVersionKind, k book.Key, h *book.History, v int) (runtime.Object, error) {
	switch list.(type) {
	case *unstructured.UnstructuredList, *metav1.PartialObjectMetadataList:
		return listItem(list, scheme, gvk, h.Versions[v])
	}
	key := typedItem{key: k, v: v, rv: h.RVs[v], t: reflect.TypeOf(list)}
	if o, ok := ti.m[key]; ok {
		return o.DeepCopyObject(), nil
	}
	o, err := listItem(list, scheme, gvk, h.Versions[v])
	if err != nil {
		return nil, err
	}
	if ti.m == nil {
		ti.m = map[typedItem]runtime.Object{}
	}
	ti.m[key] = o.DeepCopyObject()
	return o, nil
}

// listItem builds one item of list from a version's content.
func listItem(list client.ObjectList, scheme *runtime.Scheme, gvk schema.GroupVersionKind, content map[string]any) (runtime.Object, error) {
	content = runtime.DeepCopyJSON(content)
	switch list.(type) {
	case *unstructured.UnstructuredList:
		u := &unstructured.Unstructured{Object: content}
		u.SetGroupVersionKind(gvk)
		return u, nil
	case *metav1.PartialObjectMetadataList:
		o := &metav1.PartialObjectMetadata{}
		u := unstructured.Unstructured{Object: content}
		o.ObjectMeta = metav1.ObjectMeta{Name: u.GetName(), Namespace: u.GetNamespace(), Labels: u.GetLabels(), Annotations: u.GetAnnotations(),
			OwnerReferences: u.GetOwnerReferences(), Finalizers: u.GetFinalizers(), ResourceVersion: u.GetResourceVersion(), UID: u.GetUID(),
			Generation: u.GetGeneration(), DeletionTimestamp: u.GetDeletionTimestamp(), CreationTimestamp: u.GetCreationTimestamp()}
		o.SetGroupVersionKind(gvk)
		return o, nil
	}
	o, err := scheme.New(gvk)
	if err != nil {
		return nil, err
	}
	if err := runtime.DefaultUnstructuredConverter.FromUnstructured(content, o); err != nil {
		return nil, err
	}
	return o, nil
}

// listKind is the kind of a list's items.
func listKind(list client.ObjectList, scheme *runtime.Scheme) (schema.GroupVersionKind, error) {
	gvk, err := apiutil.GVKForObject(list, scheme)
	if err != nil {
		return gvk, fmt.Errorf("explore: %T: %w", list, err)
	}
	gvk.Kind = strings.TrimSuffix(gvk.Kind, "List")
	return gvk, nil
}
