package informers

import (
	"fmt"
	"slices"
	"strings"

	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/statuspatch/statuspatch/testenv/explore/internal/book"
	servedapi "github.com/statuspatch/statuspatch/testenv/explore/internal/served"
)

// A cached List is served by the kind's informer of the list's
// representation (View), which may lag: it shows the kind's objects as
// they were at one point of the schedule (history seqs), each at its
// version then, the objects created since left out and the ones deleted
// since still in. The explorer chooses the point among those that give a
// different list, at most Options.Versions of them, as it chooses a Get's
// lag (one lag of the seed). A point is one the informer can be at: no
// object of the kind older than that informer has served. Once chosen,
// the List has served each object of the kind at its version then, so
// later cached reads through the same informer (Gets and Lists, in this
// step or a later one) see that version or a newer one, never an older:
// the informer may have moved on between two calls of one reconcile, as a
// real one does (KubeRay lists its head Pods, then reads the Pod its
// expectations wait for).

// Point is a point a cached List of one kind may be served from.
type Point struct {
	// Seq is the point (book.History.Seqs).
	Seq int
	// Items are the objects listed there, by name.
	Items []book.Key
}

// Match reports whether a version (its content) of the object k is
// selected into a list.
type Match func(k book.Key, content map[string]any) bool

// Points are the points a cached List of the objects kind (all of its
// kind the schedule knows) may be served from, newest first, one per
// different list, each the oldest point that gives it: at most versions
// (Options.Versions; more when an open window's point, window, is older:
// the window serves the list there, -1 for none), none older than what
// the informer of rep served or the cold-restart floor. cut reports that
// a different, older list was there.
func (m *Model) Points(kind []book.Key, rep servedapi.Rep, match Match, window, versions int) (out []Point, cut bool) {
	seqs := []int{m.Book.Seq()}
	for _, k := range kind {
		for i, s := range m.Book.History(k).Seqs {
			if i > 0 {
				seqs = append(seqs, s-1) // just before that version
			}
		}
	}
	slices.Sort(seqs)
	seqs = slices.Compact(seqs)
	slices.Reverse(seqs)
	last := ""
	for _, seq := range seqs {
		var items []book.Key
		var sig strings.Builder
		for _, k := range kind {
			h := m.Book.History(k)
			v := book.VersionAt(h, seq)
			if v < max(m.Floor[k], m.View.Lowest(k, rep)) {
				return out, false // older points are older still
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
			out[len(out)-1].Seq = seq
			continue
		}
		if len(out) >= versions && (window < 0 || out[len(out)-1].Seq <= window) {
			return out, true
		}
		last = sig.String()
		slices.SortFunc(items, func(a, b book.Key) int { return strings.Compare(a.NN.String(), b.NN.String()) })
		out = append(out, Point{Seq: seq, Items: items})
	}
	return out, false
}

// SetListAt sets list's items (a list of gvk) to their versions at p.
func (m *Model) SetListAt(list client.ObjectList, gvk schema.GroupVersionKind, p Point) error {
	objs := make([]runtime.Object, 0, len(p.Items))
	for _, k := range p.Items {
		h := m.Book.History(k)
		o, err := m.items.item(list, m.Scheme, gvk, k, h, book.VersionAt(h, p.Seq))
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

// Matcher returns what selects an object version into a list of gvk with
// lo, or false when the explorer cannot tell (a field selector without an
// index Setup registered).
func (m *Model) Matcher(gvk schema.GroupVersionKind, lo *client.ListOptions) (Match, bool) {
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
			fn := m.Indexes[gvk][req.Field]
			if fn == nil {
				return nil, false
			}
			wants = append(wants, want{fn: fn, value: req.Value})
		}
	}
	if len(wants) > 0 {
		if _, err := m.Scheme.New(gvk); err != nil {
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
		typed, err := m.Scheme.New(gvk)
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

// Scope names the objects a List with lo selects (its namespace and
// label selector), or false when it selects by more (a field selector)
// or asks for a part or a version (a Limit, a continue token, raw
// options): a List the book cannot serve.
func Scope(lo *client.ListOptions) (string, bool) {
	if lo.Limit > 0 || lo.Continue != "" || lo.Raw != nil || lo.FieldSelector != nil && !lo.FieldSelector.Empty() {
		return "", false
	}
	sel := ""
	if lo.LabelSelector != nil {
		sel = lo.LabelSelector.String()
	}
	return lo.Namespace + "\x00" + sel, true
}

// OneVersion reports that the book holds the objects of gvk's kind under
// gvk's version only: the book serves a List of the version it holds.
func OneVersion(b *book.Book, gvk schema.GroupVersionKind) bool {
	for _, k := range b.Keys() {
		if k.GVK.GroupKind() == gvk.GroupKind() && k.GVK.Version != gvk.Version {
			return false
		}
	}
	return true
}
