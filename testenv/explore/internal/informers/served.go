package informers

import (
	"context"
	"errors"
	"slices"
	"sort"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/statuspatch/statuspatch/testenv/explore/internal/book"
	servedapi "github.com/statuspatch/statuspatch/testenv/explore/internal/served"
)

// What a cache served: the objects a cached List served at a point shows
// (ServeList), and what the served API's second cache holds (Held,
// Cache.MarkSeen), which reads the book through ServedBook. The explorer
// records each as a read of its step.

// Kind lists the objects of gvk the book holds, in its order: what a
// cached List of the kind is taken from (Points, ServeList).
func (m *Model) Kind(gvk schema.GroupVersionKind) []book.Key {
	var out []book.Key
	for _, k := range m.Book.Keys() {
		if k.GVK == gvk {
			out = append(out, k)
		}
	}
	return out
}

// Listed is one object of a cached List's kind as the List served it.
type Listed struct {
	Key book.Key
	// Version is its version at the List's point, Newest its newest.
	Version, Newest int
	// Missing: the List left it out (not there, or not selected, at its
	// point), though a List of the newest would hold it.
	Missing bool
	// PastLeader is the newest version the informers before a leader
	// change served it at (View.PastLeader), -1 for none.
	PastLeader int
}

// ServeList serves a cached List of the objects kind (Kind) through the
// informer of rep at point p: that informer has then served each object
// at its version there (View.Saw). It returns, in kind's order, the
// objects the List holds or a List of the newest would (match selects).
func (m *Model) ServeList(kind []book.Key, rep servedapi.Rep, match Match, p Point) []Listed {
	var out []Listed
	for _, k := range kind {
		h := m.Book.History(k)
		v := book.VersionAt(h, p.Seq)
		m.View.Saw(k, rep, v)
		listed := slices.Contains(p.Items, k)
		if !listed && (h.Versions[h.Newest()] == nil || !match(k, h.Versions[h.Newest()])) {
			continue // neither listed nor in the newest list
		}
		out = append(out, Listed{Key: k, Version: v, Newest: h.Newest(), Missing: !listed, PastLeader: m.View.PastLeader(k, rep, v)})
	}
	return out
}

// HeldObject is what a second cache's watch holds of one object: its
// newest Version, through the informer of Rep, or none (Missing: out of
// the watch's label selector).
type HeldObject struct {
	Key     book.Key
	Version int
	Rep     servedapi.Rep
	Missing bool
}

// Held lists what the watches' caches (the served API's second cache)
// hold of every object of b they cover, once each (the first watch's
// representation): the newest version, or none; a gone object is left
// out. The watches are taken in a fixed order (their list names), not
// the order their informers happened to start in, so that a replay lists
// the same.
func Held(b *book.Book, watches []servedapi.Request) []HeldObject {
	ws := append([]servedapi.Request(nil), watches...)
	sort.SliceStable(ws, func(i, j int) bool { return ws[i].ListName() < ws[j].ListName() })
	noted := map[book.Key]bool{}
	var out []HeldObject
	for _, w := range ws {
		for _, k := range b.Keys() {
			if noted[k] || k.GVK != w.GVK || !w.Covers(k.NN) {
				continue
			}
			noted[k] = true
			h := b.History(k)
			v := h.Newest()
			cur := h.Versions[v]
			if cur == nil {
				continue // gone: the cache holds nothing of it, and says so by nothing
			}
			out = append(out, HeldObject{Key: k, Version: v, Rep: w.Rep, Missing: !w.Matches(cur)})
		}
	}
	return out
}

// ServedBook is the book as the served API reads it (served.Book).
type ServedBook struct {
	Book *book.Book
	// Server is the server's client, unrecorded; Crash is the refusal
	// of a process that crashed.
	Server client.Reader
	Crash  error
}

func (b ServedBook) Newest(gvk schema.GroupVersionKind) []servedapi.Object {
	var out []servedapi.Object
	for _, k := range b.Book.Keys() {
		if k.GVK != gvk {
			continue
		}
		h := b.Book.History(k)
		out = append(out, servedapi.Object{NN: k.NN, Name: k.String(), Object: h.Versions[h.Newest()], RV: h.RVs[h.Newest()]})
	}
	return out
}

func (b ServedBook) Crashed(err error) bool { return errors.Is(err, b.Crash) }

func (b ServedBook) ListUnrecorded(ctx context.Context, list *unstructured.UnstructuredList, opts ...client.ListOption) error {
	return b.Server.List(ctx, list, opts...)
}

// MarkSeen counts as seen by the running step every object a watch of
// the second cache covers (its namespace and field selector) at its
// newest version: the cache holds it so, or holds it not, which a label
// selector's cache says as much as a version does (the object left the
// selector). It then records what the watches' cache holds of each
// (Held): its reads are served from its own store, in process, out of
// the explorer's sight, so the step lists what it held, not what it read.
func (c *Cache) MarkSeen(watches []servedapi.Request) {
	if i, _ := c.Trace.Step(); i == 0 || len(watches) == 0 {
		return
	}
	b := c.Model.Book
	for _, w := range watches {
		for _, k := range b.Keys() {
			if k.GVK == w.GVK && w.Covers(k.NN) {
				c.Trace.Saw(k, b.History(k).Newest())
			}
		}
	}
	for _, o := range Held(b, watches) {
		c.Trace.Held(Read{Key: o.Key, Version: o.Version + 1, Newest: o.Version + 1, Informer: o.Rep.String(), Missing: o.Missing})
	}
}
