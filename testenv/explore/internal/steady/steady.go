// Package steady says what became, in a schedule's steady state, of the
// values a lost write overwrote: written again by a later write and held
// to the end (Restored), or ended with their object, gone or still being
// deleted held by no writer's finalizer (EndedWithObject). Each reads
// only the object's history in the book of versions (internal/book):
// what the server held, never the run or its trace. The judge
// (internal/judge) ranks a lost write its Restoration names below what
// persists.
//
// A lost write whose lost values hold again in the steady state did no
// lasting harm to those fields: the server's history of the object
// shows a later write setting again exactly what the lost write
// overwrote, and every version from that write to the steady state's
// holding it (karpenter's lifecycle overwrites the conditions
// disruption wrote after a leader change, and disruption writes them
// again: examples/realops4). It stands, its cause and message kept, but
// ranks below what persists (Restored's severity). What was lost is, for
// each field the write overwrote, the value it held before; for a list
// (a map list by its keys, an atomic list item by item, whatever the
// order), the items the write took away or changed; only where the
// write took no item away (an atomic list's order), the whole list.
// So does a lost write on an object whose deletion was asked for before
// it (the version it replaced has a deletionTimestamp), gone in the
// steady state: its fields, the lost values with them, ended with the
// object, which the loss did not make go (karpenter's lifecycle, after
// a leader change, overwrites the conditions of a NodeClaim the user
// deleted: examples/realops4). Not a loss of finalizers, which decide
// when the object goes. What the loss made others do meanwhile, other
// invariants judge (the instance karpenter leaks in the same schedule).
// So does one whose object the steady state still holds being deleted,
// held by no writer's finalizer: its newest version, the same object,
// has a deletionTimestamp and no metadata.finalizers, which the server
// removes the moment the last finalizer goes; only the server's own
// work is left, which no writer decides (a Namespace's spec.finalizers,
// [kubernetes], the namespace lifecycle controller's, which the full
// API does not run: accurate deletes a SubNamespace's Namespace, which
// stays Terminating, TestLostWriteOnANamespaceBeingDeleted; a Pod bound
// to a node, in the graceful deletion its kubelet would end,
// TestLostWriteOnAPodBeingDeleted).
// Where the history cannot show it (no steady state, the object gone
// without a deletion asked for first, or created again, held by a
// writer's finalizer, a value that never comes back), the loss keeps
// its rank: Exact or Unknown.
//
// It imports of the explorer's module only internal/book (imports_test.go
// in the explorer's folder checks it).
package steady

import (
	"github.com/statuspatch/statuspatch/testenv/explore/internal/book"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
)

// Restoration is where the values a lost write overwrote were written
// again: the version (from 1) from which every version to the steady
// state holds them, the step whose write made it (0: no step's), and
// ButTimes, that they hold again but for time-like values (a
// lastTransitionTime set anew). Ended: the object, being deleted when
// they were lost, is gone in the steady state since Version, which
// Step's write made; or, Deleting, still being deleted there, held by no
// writer's finalizer, since Version (its deletion), which Step made.
type Restoration struct {
	Version  int
	Step     int
	ButTimes bool
	Ended    bool
	Deleting bool
}

// Restored says whether the values the write that made h's version at
// (from 0) overwrote at fields (prev: the version it replaced, cur: the
// one it made) hold again in h's newest version, the steady state's,
// written again by a later write: the earliest version after at from
// which every version to the newest is of the same object (UID) and
// holds them (but for time-like values: ButTimes). Not when they held
// at at itself (a loss of times only: nothing was written again), nor
// when the newest version is absent or another object's.
func Restored(h *book.History, at int, prev, cur map[string]any, fields [][]string, keys book.ListKeys) (Restoration, bool) {
	holds := func(v map[string]any) book.Difference {
		d := book.Same
		for _, f := range fields {
			d = max(d, holdsAgain(f, prev, cur, v, keys))
		}
		return d
	}
	first, d := -1, book.Same
	for v := h.Newest(); v > at; v-- {
		ver := h.Versions[v]
		if ver == nil || book.UIDOfVersion(ver) != book.UIDOfVersion(cur) {
			break
		}
		dv := holds(ver)
		if dv > book.TimesOnly {
			break
		}
		first, d = v, max(d, dv)
	}
	if first < 0 || (first == at+1 && holds(cur) <= book.TimesOnly) {
		return Restoration{}, false
	}
	r := Restoration{Version: first + 1, ButTimes: d == book.TimesOnly}
	if first < len(h.By) {
		r.Step = h.By[first]
	}
	return r, true
}

// EndedWithObject says whether the values the write that made h's
// version at (from 0) overwrote at fields (prev: the version it
// replaced) ended with their object: prev has a deletionTimestamp, none
// of fields is a finalizer, and h's newest version, the steady state's,
// is absent, the object gone since the version the Restoration names
// (the first absence after at), or is the same object being deleted
// held by no writer's finalizer (beingDeleted; Deleting), since the
// version the Restoration names (the first of it with a
// deletionTimestamp).
func EndedWithObject(h *book.History, at int, prev map[string]any, fields [][]string) (Restoration, bool) {
	if _, ok, _ := unstructured.NestedString(prev, "metadata", "deletionTimestamp"); !ok {
		return Restoration{}, false
	}
	for _, f := range fields {
		if isFinalizers(h.Key.IsNamespace(), f) {
			return Restoration{}, false
		}
	}
	if newest := h.Versions[h.Newest()]; newest != nil {
		if !beingDeleted(newest, h.Key.IsNamespace()) || book.UIDOfVersion(newest) != book.UIDOfVersion(prev) {
			return Restoration{}, false
		}
		first := h.Newest()
		for first > 0 && h.Versions[first-1] != nil && book.UIDOfVersion(h.Versions[first-1]) == book.UIDOfVersion(prev) &&
			hasDeletionTimestamp(h.Versions[first-1]) {
			first--
		}
		r := Restoration{Version: first + 1, Ended: true, Deleting: true}
		if first < len(h.By) {
			r.Step = h.By[first]
		}
		return r, true
	}
	for v := at + 1; v <= h.Newest(); v++ {
		if h.Versions[v] == nil {
			r := Restoration{Version: v + 1, Ended: true}
			if v < len(h.By) {
				r.Step = h.By[v]
			}
			return r, true
		}
	}
	return Restoration{}, false
}

// beingDeleted says that v, a version of an object, is being deleted
// held by no writer's finalizer: it has a deletionTimestamp and no
// metadata.finalizers (the server removes the object the moment the
// last one goes), and, a Namespace's (ns), no spec.finalizers but the
// namespace lifecycle controller's ("kubernetes"). What is left of its
// deletion is the server's own work (the namespace lifecycle
// controller's, a kubelet's grace period), decided by no writer.
func beingDeleted(v map[string]any, ns bool) bool {
	if !hasDeletionTimestamp(v) {
		return false
	}
	if f, ok, _ := unstructured.NestedSlice(v, "metadata", "finalizers"); ok && len(f) > 0 {
		return false
	}
	if ns {
		f, _, _ := unstructured.NestedStringSlice(v, "spec", "finalizers")
		for _, s := range f {
			if s != "kubernetes" {
				return false
			}
		}
	}
	return true
}

// hasDeletionTimestamp says that v's deletion was asked for.
func hasDeletionTimestamp(v map[string]any) bool {
	_, ok, _ := unstructured.NestedString(v, "metadata", "deletionTimestamp")
	return ok
}

// isFinalizers says that f, a lost field of an object, is (in) one of
// its finalizers, which decide when it goes: metadata.finalizers, or a
// Namespace's (ns) spec.finalizers.
func isFinalizers(ns bool, f []string) bool {
	if len(f) < 2 || f[1] != "finalizers" {
		return false
	}
	return f[0] == "metadata" || (f[0] == "spec" && ns)
}

// holdsAgain says how v holds what the write from prev to cur lost at
// path: Same, TimesOnly (but for time-like values) or Other (not).
func holdsAgain(path []string, prev, cur, v map[string]any, keys book.ListKeys) book.Difference {
	a, _, _ := unstructured.NestedFieldNoCopy(prev, path...)
	c, _, _ := unstructured.NestedFieldNoCopy(cur, path...)
	s, _, _ := unstructured.NestedFieldNoCopy(v, path...)
	la, aok := a.([]any)
	lc, cok := c.([]any)
	ls, sok := s.([]any)
	if !aok || !cok || !sok {
		return book.Compare(path, a, s, keys)
	}
	items := append(path[:len(path):len(path)], book.ItemsField)
	var ks []string
	if keys != nil {
		ks, _ = keys(path)
	}
	var lost []any
	for _, it := range la {
		if match(items, it, lc, ks, keys) != book.Same {
			lost = append(lost, it)
		}
	}
	if len(lost) == 0 {
		// Only the order (or nothing the judge compares) was lost: the
		// whole list, in order.
		return book.Compare(path, a, s, keys)
	}
	d := book.Same
	for _, it := range lost {
		d = max(d, match(items, it, ls, ks, keys))
	}
	return d
}

// match says how l holds item: by its keys' values where the list is a
// map list (ks), else its closest item.
func match(items []string, item any, l []any, ks []string, keys book.ListKeys) book.Difference {
	best := book.Other
	for _, o := range l {
		if len(ks) > 0 && !sameKeys(item, o, ks) {
			continue
		}
		best = min(best, book.Compare(items, item, o, keys))
	}
	return best
}

// sameKeys reports that two map-list items have the same keys' values.
func sameKeys(a, b any, ks []string) bool {
	ma, aok := a.(map[string]any)
	mb, bok := b.(map[string]any)
	if !aok || !bok {
		return false
	}
	for _, k := range ks {
		if book.Compare(nil, ma[k], mb[k], nil) != book.Same {
			return false
		}
	}
	return true
}
