// Package history reads an object's past versions from the API server: the
// first version after a base resourceVersion (one watch from the base, or
// lists at exact resourceVersions) and the object as it was at one exact
// resourceVersion. It is the patcher's only I/O below the façade, and
// untyped: it returns the versions as the server sent them (Doc), and the
// patcher decodes them into its Go type, so the values settling compares
// still pass through that type.
//
// Every send of a locked status write carries the base's resourceVersion,
// so it can only have been stored as the first write after the base
// (patcher/internal/settle): First reads that version. resourceVersions
// are etcd's revisions, one global counter, so no version of the object
// lies between two consecutive numbers.
package history

import (
	"context"
	"errors"
	"fmt"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/fields"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/watch"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// Timeout bounds the watch of a configured watcher, and the lists of one
// read by lists. The read past the base already saw the version looked
// for, so a server that keeps the history answers at once; the bound only
// ends a watch that hangs.
var Timeout = 10 * time.Second

// ImplicitTimeout bounds the watch of a client that can watch when no
// watcher was configured: a fake client's watch starts now and never
// answers, and the lists then tell at once.
var ImplicitTimeout = 2 * time.Second

// Source is where an object's history is read.
type Source struct {
	// Watcher is the configured watcher (nil: none). With one, the
	// history is read by its watch alone.
	Watcher client.WithWatch
	// Implicit is a client that can watch although no watcher was
	// configured (nil: none); when its watch cannot tell, Reader lists.
	Implicit client.WithWatch
	// Reader lists the object at exact resourceVersions; ReaderName names
	// it in errors ("the API reader").
	Reader     client.Reader
	ReaderName string
	GVK        schema.GroupVersionKind
	Key        client.ObjectKey
	// ID names the object in errors.
	ID string
	// Compare orders two resourceVersions, an error when either is not
	// a comparable one (a decimal integer without leading zeros).
	Compare func(a, b string) (int, error)
}

// Doc is one version of the object, as the server sent it.
type Doc struct {
	// JSON is the object; nil for a version known only to be gone (a
	// list at a resourceVersion where the object did not exist).
	JSON            []byte
	ResourceVersion string
	UID             types.UID
	// Gone: the object was deleted (a watch's Deleted event, whose JSON
	// is the object as last stored, or a list without it).
	Gone bool
	// IsRead: the first version after the base is the read itself (lists
	// found no other between them); no JSON, the caller holds it.
	IsRead bool
}

// First returns the first version of the object after the base (baseRV)
// up to the read readRV (a read past the base, or the base itself after a
// 409): by the configured watcher's watch; else by the implicit watcher's,
// then lists when it cannot tell; else by lists. The error says why the
// history cannot be read.
func First(ctx context.Context, s Source, baseRV string, baseUID types.UID, readRV string) (Doc, error) {
	if s.Watcher != nil {
		return watchFirst(ctx, s, s.Watcher, Timeout, baseRV, readRV)
	}
	if s.Implicit == nil {
		return byLists(ctx, s, baseRV, baseUID, readRV)
	}
	first, werr := watchFirst(ctx, s, s.Implicit, ImplicitTimeout, baseRV, readRV)
	if werr == nil || ctx.Err() != nil {
		return first, werr
	}
	first, lerr := byLists(ctx, s, baseRV, baseUID, readRV)
	if lerr != nil {
		return first, fmt.Errorf("%w; and the client's own watch: %w", lerr, werr)
	}
	return first, nil
}

// watchFirst reads the first version after baseRV with one watch through
// wc, bounded by timeout.
func watchFirst(ctx context.Context, s Source, wc client.WithWatch, timeout time.Duration, baseRV, readRV string) (Doc, error) {
	if baseRV == "" {
		return Doc{}, errors.New("the base has no resourceVersion to watch from")
	}
	hctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	secs := int64(timeout / time.Second)
	wi, err := wc.Watch(hctx, newList(s.GVK), &client.ListOptions{
		Namespace:     s.Key.Namespace,
		FieldSelector: fields.OneTermEqualSelector("metadata.name", s.Key.Name),
		Raw:           &metav1.ListOptions{ResourceVersion: baseRV, TimeoutSeconds: &secs},
	})
	if err != nil {
		return Doc{}, fmt.Errorf("watch from resourceVersion %s: %w", baseRV, err)
	}
	defer wi.Stop()
	for {
		var ev watch.Event
		var open bool
		select {
		case <-hctx.Done():
			if err := ctx.Err(); err != nil {
				return Doc{}, err
			}
			return Doc{}, fmt.Errorf("no event within %s of a watch from resourceVersion %s", timeout, baseRV)
		case ev, open = <-wi.ResultChan():
		}
		if !open {
			return Doc{}, fmt.Errorf("the watch from resourceVersion %s ended before its first event", baseRV)
		}
		switch ev.Type {
		case watch.Error:
			return Doc{}, fmt.Errorf("watch from resourceVersion %s: %w", baseRV, apierrors.FromObject(ev.Object))
		case watch.Bookmark:
			continue
		}
		u, ok := ev.Object.(*unstructured.Unstructured)
		if !ok {
			return Doc{}, fmt.Errorf("the watch returned a %T, not an object", ev.Object)
		}
		rv := u.GetResourceVersion()
		if u.GetName() != s.Key.Name {
			continue // another object: a watcher that ignores the field selector
		}
		if cmp, cerr := s.Compare(rv, baseRV); (cerr == nil && cmp <= 0) || rv == baseRV {
			continue // not after the base: a watcher that does not start where asked
		}
		if cmp, cerr := s.Compare(rv, readRV); cerr == nil && cmp > 0 && readRV != baseRV {
			// Later than the read past the base: the watch did not replay
			// the history (a fake client's watch starts now).
			return Doc{}, fmt.Errorf("the watch from resourceVersion %s began at %s, after the read's %s: it does not replay the object's history",
				baseRV, rv, readRV)
		}
		d, err := docOf(u, s.ID)
		d.Gone = ev.Type == watch.Deleted
		return d, err
	}
}

// docOf is the Doc of u; id names the object in its error.
func docOf(u *unstructured.Unstructured, id string) (Doc, error) {
	b, err := u.MarshalJSON()
	if err != nil {
		return Doc{}, fmt.Errorf("decode the watched %s: %w", id, err)
	}
	return Doc{JSON: b, ResourceVersion: u.GetResourceVersion(), UID: u.GetUID()}, nil
}

// newList is an empty unstructured list of gvk's kind.
func newList(gvk schema.GroupVersionKind) *unstructured.UnstructuredList {
	list := &unstructured.UnstructuredList{}
	list.SetGroupVersionKind(gvk.GroupVersion().WithKind(gvk.Kind + "List"))
	return list
}
