package patcher

import (
	"context"
	"fmt"
	"reflect"

	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/statuspatch/statuspatch/patcher/internal/book"
)

// A Client's Get reads this process's own writes (issue 72): code that
// re-reads an object after its status write, as kubebuilder's tutorials do
// ("re-fetch before updating the status"), through the manager's cache,
// gets the object from before that write while the cache lags, and its next
// write from it conflicts. The version book (records.go) knows the object's
// last own write; a read that returned an older object, and began after
// that write completed, is read again through the API reader, the check
// Fetch makes (freshness.go).

// Get reads the object at key into obj through the client c wraps (the
// manager's cache, for ForManager's Client), with opts. When c carries an
// API reader (ForManager's does, and WithDefaults given WithAPIReader) and
// the object is one this process's patchers wrote, a read that began after
// that write had completed and returned an older object (a cache that
// lags) is made again through the API reader, with opts, and obj is
// replaced with its result. An object never written here, a read that
// raced with the write (it began before the write completed: an ordinary
// race, which the lock handles), and any Client without an API reader keep
// the one cached read. An error of the second read is returned wrapped,
// naming the object; obj then holds the cached read.
func (c *Client) Get(ctx context.Context, key client.ObjectKey, obj client.Object, opts ...client.GetOption) error {
	if c.reader == nil {
		return c.Client.Get(ctx, key, obj, opts...)
	}
	readSeq := records.Sequence() // before the read: a raced read is not stale
	if err := c.Client.Get(ctx, key, obj, opts...); err != nil {
		return err
	}
	if !staleRead(c.Client, obj, readSeq) {
		return nil
	}
	return c.readFresh(ctx, key, obj, opts)
}

// staleRead reports whether obj, read through c by a read that began at
// records' sequence readSeq, is older than this process's last write to it
// that had completed before the read began (freshnessOf, as Fetch checks).
// The records are found by c, the client patchers write through: the
// client a Client wraps, as New and Fetch unwrap it.
func staleRead(c client.Client, obj client.Object, readSeq uint64) bool {
	rec := recordOf(c, obj, false)
	if rec == nil {
		return false // never written (or read) by a patcher here
	}
	return freshnessOf(rec, obj.GetUID(), obj.GetResourceVersion(), readSeq, true).state == book.Stale
}

// readFresh reads the object at key through c's API reader into a new
// object of obj's type and kind, then replaces obj with it in place: a
// decode into obj itself would keep the cached read's fields the fresh
// object lacks (and merge its maps).
func (c *Client) readFresh(ctx context.Context, key client.ObjectKey, obj client.Object, opts []client.GetOption) error {
	fresh := emptyLike(obj)
	if fresh == nil {
		fresh = obj // not a pointer to a struct: read into obj itself
	}
	if err := c.reader.Get(ctx, key, fresh, opts...); err != nil {
		return fmt.Errorf("statuspatch: get %s %s: the cache is older than this process's own write; re-read through the API reader: %w",
			kindOf(c.Client, obj), key, withCause(ctx, err))
	}
	recordOf(c.Client, fresh, false).Observe(fresh.GetResourceVersion())
	if fresh != obj {
		reflect.ValueOf(obj).Elem().Set(reflect.ValueOf(fresh).Elem())
	}
	return nil
}

// emptyLike returns a new, empty object of obj's Go type carrying obj's
// group, version and kind (an unstructured or metadata-only object needs
// it to be read); nil when obj is not a pointer to a struct.
func emptyLike(obj client.Object) client.Object {
	if t := reflect.TypeOf(obj); t.Kind() != reflect.Pointer || t.Elem().Kind() != reflect.Struct {
		return nil
	}
	o := reflect.New(reflect.TypeOf(obj).Elem()).Interface().(client.Object)
	o.GetObjectKind().SetGroupVersionKind(obj.GetObjectKind().GroupVersionKind())
	return o
}

// apiReaderOf is the API reader opts set (the last WithAPIReader wins), or
// nil.
func apiReaderOf(opts []Option) client.Reader {
	var o options
	for _, opt := range opts {
		if opt != nil {
			opt.applyToPatcher(&o)
		}
	}
	return o.apiReader
}
