package faults

import (
	"context"
	"encoding/json"
	"fmt"
	"reflect"

	"github.com/statuspatch/statuspatch/testenv/explore/internal/book"

	"k8s.io/apimachinery/pkg/runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// A write the old leader sends after a CrashInFlight is captured as
// sent (CaptureObject, CaptureApply): what the request carries is fixed
// then, its delivery only sends it. The root's client holds the capture
// (Hold) and fails the call.

// CaptureObject captures a write of obj as the old leader sent it: a copy
// of obj and p's body as computed now (p nil: the object is the body),
// which resend sends when the write is delivered. b names the object (by
// its Go type and key when b does not know its kind); seen is the version
// of an object the sending step had seen (-1: none); at is the write's
// call site. It fails, sending nothing, when obj cannot be copied or p's
// body computed.
func CaptureObject(b *book.Book, seen func(book.Key) int, verb, at string, obj client.Object, p client.Patch,
	resend func(context.Context, client.Object, client.Patch) error) (Write, func(context.Context) error, error) {
	cp, ok := obj.DeepCopyObject().(client.Object)
	if !ok {
		return Write{}, nil, fmt.Errorf("explore: %T %s: copying the in-flight write: %w", obj, client.ObjectKeyFromObject(obj), ErrCrashed)
	}
	var pc client.Patch
	w := Write{Verb: verb, Object: fmt.Sprintf("%T %s", obj, client.ObjectKeyFromObject(obj)), At: at}
	if k, err := b.KeyOf(obj, client.ObjectKeyFromObject(obj)); err == nil {
		w.Object = k.String()
		w.Based = seen(k) + 1
	}
	if p != nil {
		data, err := p.Data(obj)
		if err != nil {
			// The client fails before sending: nothing is in flight.
			return Write{}, nil, fmt.Errorf("explore: %s: the patch of the in-flight write: %w", w.Object, err)
		}
		pc = client.RawPatch(p.Type(), data)
		w.Data = shorten(string(data))
	}
	return w, func(ctx context.Context) error { return resend(ctx, cp, pc) }, nil
}

// CaptureApply captures a server-side apply of ac to k's object as the
// old leader sent it: data, the configuration as JSON now
// (book.KeyOfApply), decoded into a copy, which resend applies when the
// write is delivered; seen is the version of k the sending step had seen
// (-1: none), at the write's call site.
func CaptureApply(k book.Key, data []byte, seen int, verb, at string, ac runtime.ApplyConfiguration,
	resend func(context.Context, runtime.ApplyConfiguration) error) (Write, func(context.Context) error) {
	cp := ac
	if t := reflect.TypeOf(ac); t.Kind() == reflect.Pointer {
		v := reflect.New(t.Elem())
		if err := json.Unmarshal(data, v.Interface()); err == nil {
			if c, ok := v.Interface().(runtime.ApplyConfiguration); ok {
				cp = c
			}
		}
	}
	w := Write{Verb: verb, Object: k.String(), Based: seen + 1, Data: shorten(string(data)), At: at}
	return w, func(ctx context.Context) error { return resend(ctx, cp) }
}

// shorten cuts a write's body to the 240 bytes a step's record keeps of
// it, as the root's record of a write does.
func shorten(s string) string {
	const n = 240
	if len(s) <= n {
		return s
	}
	return s[:n] + "..."
}
