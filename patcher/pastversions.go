package patcher

import (
	"context"
	"fmt"
	"strconv"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/fields"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// Without a watcher the object's history is read through the API reader,
// at exact resourceVersions: a list of the object's name with
// resourceVersionMatch=Exact returns the object as it was at that
// resourceVersion (the server keeps them until etcd's compaction, about
// five minutes; older is a 410). The object is at the base at the base's
// resourceVersion and past it at the fresh read's, so halving that range
// finds the first version after the base in about log2(fresh - base)
// lists; none when the fresh read is the very next resourceVersion after
// the base's (the common case of one other writer on a quiet server).
// resourceVersions are etcd's revisions: one global counter, so no version
// of the object lies between two consecutive numbers.

// maxHistoryLists bounds the lists of one such read (2^24 revisions).
const maxHistoryLists = 24

// firstByLists returns the first version of the object after w's base, up
// to fresh (a read past the base), read with lists at exact
// resourceVersions through the API reader. A deletion is returned as a
// version without a UID.
func (p *Patcher[T]) firstByLists(ctx context.Context, w *sentWrite[T], fresh T) (T, error) {
	var zero T
	baseRV, freshRV := w.base.GetResourceVersion(), fresh.GetResourceVersion()
	lo, lerr := strconv.ParseUint(baseRV, 10, 64)
	hi, herr := strconv.ParseUint(freshRV, 10, 64)
	if lerr != nil || herr != nil || hi <= lo || !comparableResourceVersion(baseRV) || !comparableResourceVersion(freshRV) {
		return zero, fmt.Errorf("the resourceVersions of the base (%s) and of the read (%s) are not increasing numbers, "+
			"so the versions between them cannot be listed", baseRV, freshRV)
	}
	first := fresh
	gvk, err := p.client.GroupVersionKindFor(p.obj)
	if err != nil {
		return zero, err
	}
	hctx, cancel := context.WithTimeout(ctx, historyTimeout)
	defer cancel()
	for n := 0; hi-lo > 1; n++ {
		if n == maxHistoryLists {
			return zero, fmt.Errorf("the first version after resourceVersion %s is not found within %d lists", baseRV, maxHistoryLists)
		}
		mid := lo + (hi-lo)/2
		v, found, err := p.listAt(hctx, gvk, mid)
		if err != nil {
			if cerr := ctxError(ctx); cerr != nil {
				return zero, cerr
			}
			return zero, err
		}
		if !found {
			// Gone at mid: deleted after the base, at mid or before.
			first, hi = p.newObject(), mid
			continue
		}
		rv, perr := strconv.ParseUint(v.GetResourceVersion(), 10, 64)
		switch {
		case v.GetUID() == w.base.GetUID() && v.GetResourceVersion() == baseRV:
			lo = mid
		case perr != nil || rv > mid || rv <= lo:
			return zero, fmt.Errorf("the list at resourceVersion %d returned the object at resourceVersion %s: "+
				"%s does not serve the object's past versions (a cache, or a fake client)", mid, v.GetResourceVersion(), readerName(p.opts.apiReader))
		default:
			first, hi = v, rv
		}
	}
	return first, nil
}

// listAt returns the object as it was at resourceVersion rv: found is false
// when it did not exist then.
func (p *Patcher[T]) listAt(ctx context.Context, gvk schema.GroupVersionKind, rv uint64) (obj T, found bool, err error) {
	list := &unstructured.UnstructuredList{}
	list.SetGroupVersionKind(gvk.GroupVersion().WithKind(gvk.Kind + "List"))
	at := strconv.FormatUint(rv, 10)
	err = p.reader().List(ctx, list, &client.ListOptions{
		Namespace:     p.obj.GetNamespace(),
		FieldSelector: fields.OneTermEqualSelector("metadata.name", p.obj.GetName()),
		Raw:           &metav1.ListOptions{ResourceVersion: at, ResourceVersionMatch: metav1.ResourceVersionMatchExact},
	})
	if err != nil {
		return obj, false, fmt.Errorf("list %s at resourceVersion %s: %w", p.id(), at, withCause(ctx, err))
	}
	if list.GetResourceVersion() != at {
		return obj, false, fmt.Errorf("a list at resourceVersion %s returned resourceVersion %q: %s does not serve the object's past versions "+
			"(a cache, or a fake client)", at, list.GetResourceVersion(), readerName(p.opts.apiReader))
	}
	for i := range list.Items {
		if list.Items[i].GetName() != p.obj.GetName() {
			continue
		}
		obj, err = p.fromWatch(&list.Items[i])
		return obj, err == nil, err
	}
	return obj, false, nil
}

// nextResourceVersion is the resourceVersion after rv, or "" when rv is
// not a number.
func nextResourceVersion(rv string) string {
	n, err := strconv.ParseUint(rv, 10, 64)
	if err != nil || !comparableResourceVersion(rv) || n == ^uint64(0) {
		return ""
	}
	return strconv.FormatUint(n+1, 10)
}

// implicitWatcher is the client, or else the API reader, when it can
// watch: without WithWatcher it reads the history as a watcher would.
func (p *Patcher[T]) implicitWatcher() client.WithWatch {
	if w, ok := p.client.(client.WithWatch); ok && !isNil(w) {
		return w
	}
	if w, ok := p.opts.apiReader.(client.WithWatch); ok && !isNil(w) {
		return w
	}
	return nil
}
