package book

import (
	"context"
	"fmt"
	"reflect"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/apiutil"
)

// Book is the book of a schedule: every version of every object the
// server held, in the order first met, as the explorer's client saw them,
// and who wrote what (History.Owners). Recording a new version calls
// onNew on it: the explorer's per-write invariants. A Book is not safe
// for concurrent use: the explorer's calls lock serializes its use.
type Book struct {
	server client.Client
	hist   map[Key]*History
	order  []Key
	// lastChanged reports whether the last record made a new version;
	// seq counts the new versions (history.seqs).
	lastChanged bool
	seq         int
	// gone are objects known absent at the schedule's start, not yet
	// recorded: the backend's reset deleted them (internal/reset).
	gone map[Key]bool
	// onNew is called with each new version, h's newest, and the one it
	// replaced.
	onNew func(h *History, prev map[string]any)
	// lists are the kinds' map lists, as ListKeys read them; unread, why
	// a kind's schema could not be read (SchemaUnread).
	lists  map[schema.GroupVersionKind]ListKeys
	unread map[schema.GroupVersionKind]error
}

// New is an empty book of the objects on server; onNew, if set, is
// called with each new version (h's newest) and the one it replaced (nil:
// absent before).
func New(server client.Client, onNew func(h *History, prev map[string]any)) *Book {
	return &Book{server: server, hist: map[Key]*History{}, onNew: onNew}
}

// History is k's history, nil when the book has not met k.
func (b *Book) History(k Key) *History { return b.hist[k] }

// Keys are the objects the book has met, in the order first met. The
// caller does not change the slice.
func (b *Book) Keys() []Key { return b.order }

// Seq is the count of new versions recorded: the newest point of the
// book (History.Seqs).
func (b *Book) Seq() int { return b.seq }

// LastChanged reports whether the last Record (or Observe, Known) made a
// new version.
func (b *Book) LastChanged() bool { return b.lastChanged }

// SetGone tells the book the objects known absent at the schedule's
// start (a reset deleted them): Known takes them for absent without
// reading the server.
func (b *Book) SetGone(gone map[Key]bool) { b.gone = gone }

// Observe reads k from the server and records it (see Record), and
// reports whether that made a new version (LastChanged).
func (b *Book) Observe(ctx context.Context, k Key) (*History, bool, error) {
	u := &unstructured.Unstructured{}
	u.SetGroupVersionKind(k.GVK)
	if err := b.server.Get(ctx, k.NN, u); apierrors.IsNotFound(err) {
		return b.Record(k, nil, ""), b.lastChanged, nil
	} else if err != nil {
		return nil, false, fmt.Errorf("explore: reading %s: %w", k, err)
	}
	return b.Record(k, u.Object, u.GetResourceVersion()), b.lastChanged, nil
}

// Holds reports that the book's newest version of k is o's: the same
// object (UID) at the same resourceVersion, so observing it would record
// nothing new.
func (b *Book) Holds(k Key, o client.Object) bool {
	h := b.hist[k]
	if h == nil || o.GetResourceVersion() == "" || o.GetUID() == "" {
		return false
	}
	v := h.Versions[h.Newest()]
	return v != nil && h.RVs[h.Newest()] == o.GetResourceVersion() && UIDOfVersion(v) == string(o.GetUID())
}

// Known returns k's history, reading the object from the server the first
// time (or taking it for absent, when the reset deleted it: gone): after
// that every write goes through the explorer's client, so the newest
// recorded version is the server's.
func (b *Book) Known(ctx context.Context, k Key) (*History, error) {
	if h := b.hist[k]; h != nil {
		return h, nil
	}
	if b.gone[k] {
		return b.Record(k, nil, ""), nil // as observe records a NotFound
	}
	h, _, err := b.Observe(ctx, k)
	return h, err
}

// Record appends content (nil: absent) as k's newest version when it
// differs from the last one, calls onNew on it, and sets LastChanged. A version of another object under k's name (another UID
// than the newest's, both set: it was deleted and created again between
// two records, out of the explorer's sight) is never the same version,
// whatever its resourceVersion (the fake client numbers each object's
// from 1) or content: the deletion is recorded first, as an absence, so
// the new object's history starts anew after it and no read serves the
// old object's version as the new one's.
func (b *Book) Record(k Key, content map[string]any, rv string) *History {
	b.lastChanged = false
	h := b.hist[k]
	if h == nil {
		h = &History{Key: k, Owners: map[string]Owner{}}
		b.hist[k] = h
		b.order = append(b.order, k)
	} else if prev := h.Versions[h.Newest()]; prev != nil && content != nil &&
		UIDOfVersion(prev) != "" && UIDOfVersion(content) != "" && UIDOfVersion(prev) != UIDOfVersion(content) {
		b.add(h, nil, "") // the deletion between
	} else if h.RVs[h.Newest()] == rv {
		return h
	} else if prev := h.Versions[h.Newest()]; prev != nil && content != nil && reflect.DeepEqual(normalized(prev), normalized(content)) {
		// A new resourceVersion without a change (the fake client bumps it
		// on no-op patches): the same version, under its new name.
		h.Versions[h.Newest()], h.RVs[h.Newest()] = content, rv
		return h
	}
	b.add(h, content, rv)
	return h
}

// add appends content as h's newest version and calls onNew on it.
func (b *Book) add(h *History, content map[string]any, rv string) {
	var prev map[string]any
	if len(h.Versions) > 0 {
		prev = h.Versions[h.Newest()]
	}
	seq := 0
	if len(h.Versions) > 0 {
		b.seq++
		seq = b.seq
	}
	h.Versions = append(h.Versions, content)
	h.RVs = append(h.RVs, rv)
	h.Seqs = append(h.Seqs, seq)
	h.By = append(h.By, 0)
	b.lastChanged = true
	if b.onNew != nil {
		b.onNew(h, prev)
	}
}

// KeyOf names obj, under key, by its kind in the server's scheme.
func (b *Book) KeyOf(obj runtime.Object, key client.ObjectKey) (Key, error) {
	gvk, err := apiutil.GVKForObject(obj, b.server.Scheme())
	if err != nil {
		return Key{}, fmt.Errorf("explore: %T: %w", obj, err)
	}
	return Key{GVK: gvk, NN: key}, nil
}

// GroupResource is gvk's resource, for a NotFound error.
func (b *Book) GroupResource(gvk schema.GroupVersionKind) schema.GroupResource {
	if m, err := b.server.RESTMapper().RESTMapping(gvk.GroupKind(), gvk.Version); err == nil {
		return m.Resource.GroupResource()
	}
	return schema.GroupResource{Group: gvk.Group, Resource: gvk.Kind}
}

// UIDOf is the UID of k's newest version ("" when absent).
func (b *Book) UIDOf(k Key) types.UID {
	h := b.hist[k]
	if h == nil || h.Versions[h.Newest()] == nil {
		return ""
	}
	uid, _, _ := unstructured.NestedString(h.Versions[h.Newest()], "metadata", "uid")
	return types.UID(uid)
}

// ServerLabels names what the server chose in this schedule by the object
// it belongs to: each UID ("(uid of Widget ns/w #1)") and each name made
// from generateName ("(w-generated-1)"), and gives each object's label.
// Two runs of one schedule, or two schedules reaching one state, then
// compare equal.
func (b *Book) ServerLabels() (uids, objLabel map[string]string) {
	uids = map[string]string{} // and names the server generated
	objLabel = map[string]string{}
	generated := 0
	for _, k := range b.order {
		h := b.hist[k]
		objLabel[k.String()] = k.String()
		for _, v := range h.Versions {
			if prefix, _, _ := unstructured.NestedString(v, "metadata", "generateName"); prefix != "" {
				generated++
				label := fmt.Sprintf("(%sgenerated-%d)", prefix, generated)
				uids[k.NN.Name] = label
				lk := k
				lk.NN.Name = label
				objLabel[k.String()] = lk.String()
				break
			}
		}
	}
	for _, k := range b.order {
		n := 0
		for _, v := range b.hist[k].Versions {
			uid, _, _ := unstructured.NestedString(v, "metadata", "uid")
			if _, ok := uids[uid]; uid != "" && !ok {
				n++
				uids[uid] = fmt.Sprintf("(uid of %s #%d)", objLabel[k.String()], n)
			}
		}
	}
	return uids, objLabel
}

// LastAt is the newest point of the book at which h was at version v.
func (b *Book) LastAt(h *History, v int) int {
	if v+1 < len(h.Seqs) {
		return h.Seqs[v+1] - 1
	}
	return b.seq
}
