package intercept

import (
	"context"
	"fmt"
	"reflect"

	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/watch"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/interceptor"

	"github.com/statuspatch/statuspatch/testenv/explore/internal/crinternals"
	"github.com/statuspatch/statuspatch/testenv/explore/internal/seeded"
)

// Send sends a write of obj (with patch p, nil but for patches) to the
// server, with the options the reconcile gave.
type Send func(ctx context.Context, obj client.Object, p client.Patch) error

// SendApply sends a server-side apply of ac, with the options the
// reconcile gave.
type SendApply func(ctx context.Context, ac runtime.ApplyConfiguration) error

// A Handler is what the run does with the reconcilers' calls. Each of
// them runs under the lock Call takes (and the release it returns). api
// marks the API reader's reads (the newest versions), else the cached
// client's; c is the client beneath the interceptor.
type Handler interface {
	Call() (release func())
	Get(ctx context.Context, key client.ObjectKey, obj client.Object, api bool) error
	List(ctx context.Context, c client.WithWatch, list client.ObjectList, api bool, opts ...client.ListOption) error
	// Write records a create, update, patch or delete (verb names it:
	// "create", "status patch", ...) that send sends.
	Write(ctx context.Context, verb string, obj client.Object, p client.Patch, send Send) error
	Apply(ctx context.Context, verb string, ac runtime.ApplyConfiguration, send SendApply) error
	DeleteAllOf(ctx context.Context, c client.WithWatch, obj client.Object, opts []client.DeleteAllOfOption) error
	SubResourceCreate(ctx context.Context, c client.Client, sub string, obj, subObj client.Object, opts []client.SubResourceCreateOption) error
	// SubResourceApply is SubResource(...).Apply, from controller-runtime
	// v0.23 (crinternals.SubResourceApply reads its arguments).
	SubResourceApply(args []reflect.Value) error
}

// Clients returns the reconcilers' client (reads through h with api
// false: the cache the run models) and the API reader (api true), both
// writing through h to server.
func Clients(server client.Client, h Handler) (cached client.Client, api client.Client) {
	base := WithWatch(server)
	writes := interceptor.Funcs{
		Create: func(ctx context.Context, c client.WithWatch, obj client.Object, opts ...client.CreateOption) error {
			defer h.Call()()
			if DryRun((&client.CreateOptions{}).ApplyOptions(opts).DryRun) {
				return c.Create(ctx, obj, opts...) // stores nothing
			}
			return h.Write(ctx, "create", obj, nil, func(ctx context.Context, obj client.Object, _ client.Patch) error { return c.Create(ctx, obj, opts...) })
		},
		Update: func(ctx context.Context, c client.WithWatch, obj client.Object, opts ...client.UpdateOption) error {
			defer h.Call()()
			if DryRun((&client.UpdateOptions{}).ApplyOptions(opts).DryRun) {
				return c.Update(ctx, obj, opts...)
			}
			return h.Write(ctx, "update", obj, nil, func(ctx context.Context, obj client.Object, _ client.Patch) error { return c.Update(ctx, obj, opts...) })
		},
		Patch: func(ctx context.Context, c client.WithWatch, obj client.Object, p client.Patch, opts ...client.PatchOption) error {
			defer h.Call()()
			if DryRun((&client.PatchOptions{}).ApplyOptions(opts).DryRun) {
				return c.Patch(ctx, obj, p, opts...)
			}
			return h.Write(ctx, ApplyVerb("", p), obj, p, func(ctx context.Context, obj client.Object, p client.Patch) error {
				return c.Patch(ctx, obj, p, opts...)
			})
		},
		Delete: func(ctx context.Context, c client.WithWatch, obj client.Object, opts ...client.DeleteOption) error {
			defer h.Call()()
			if DryRun((&client.DeleteOptions{}).ApplyOptions(opts).DryRun) {
				return c.Delete(ctx, obj, opts...)
			}
			return h.Write(ctx, "delete", obj, nil, func(ctx context.Context, obj client.Object, _ client.Patch) error { return c.Delete(ctx, obj, opts...) })
		},
		DeleteAllOf: func(ctx context.Context, c client.WithWatch, obj client.Object, opts ...client.DeleteAllOfOption) error {
			defer h.Call()()
			if DryRun((&client.DeleteAllOfOptions{}).ApplyOptions(opts).DryRun) {
				return c.DeleteAllOf(ctx, obj, opts...)
			}
			return h.DeleteAllOf(ctx, c, obj, opts)
		},
		Apply: func(ctx context.Context, c client.WithWatch, ac runtime.ApplyConfiguration, opts ...client.ApplyOption) error {
			defer h.Call()()
			if DryRun((&client.ApplyOptions{}).ApplyOptions(opts).DryRun) {
				return c.Apply(ctx, ac, opts...)
			}
			return h.Apply(ctx, "apply", ac, func(ctx context.Context, ac runtime.ApplyConfiguration) error { return c.Apply(ctx, ac, opts...) })
		},
		SubResourceUpdate: func(ctx context.Context, c client.Client, sub string, obj client.Object, opts ...client.SubResourceUpdateOption) error {
			defer h.Call()()
			if DryRun((&client.SubResourceUpdateOptions{}).ApplyOptions(opts).DryRun) {
				return c.SubResource(sub).Update(ctx, obj, opts...)
			}
			return h.Write(ctx, sub+" update", obj, nil, func(ctx context.Context, obj client.Object, _ client.Patch) error {
				return c.SubResource(sub).Update(ctx, obj, opts...)
			})
		},
		SubResourcePatch: func(ctx context.Context, c client.Client, sub string, obj client.Object, p client.Patch, opts ...client.SubResourcePatchOption) error {
			defer h.Call()()
			if DryRun((&client.SubResourcePatchOptions{}).ApplyOptions(opts).DryRun) {
				return c.SubResource(sub).Patch(ctx, obj, p, opts...)
			}
			return h.Write(ctx, ApplyVerb(sub+" ", p), obj, p, func(ctx context.Context, obj client.Object, p client.Patch) error {
				return c.SubResource(sub).Patch(ctx, obj, p, opts...)
			})
		},
		SubResourceCreate: func(ctx context.Context, c client.Client, sub string, obj, subObj client.Object, opts ...client.SubResourceCreateOption) error {
			defer h.Call()()
			return h.SubResourceCreate(ctx, c, sub, obj, subObj, opts)
		},
		Watch: func(context.Context, client.WithWatch, client.ObjectList, ...client.ListOption) (watch.Interface, error) {
			return nil, fmt.Errorf("explore: Watch is not supported: reconcilers get their events from the explorer")
		},
	}
	crinternals.SetIfPresent(&writes, "SubResourceApply", func(args []reflect.Value) error {
		defer h.Call()()
		return h.SubResourceApply(args)
	})
	return interceptor.NewClient(base, withReads(h, writes, false)), interceptor.NewClient(base, withReads(h, writes, true))
}

// withReads is writes with Get and List routed to h, from the API server
// (api) or the cache.
func withReads(h Handler, writes interceptor.Funcs, api bool) interceptor.Funcs {
	f := writes
	f.Get = func(ctx context.Context, _ client.WithWatch, key client.ObjectKey, obj client.Object, _ ...client.GetOption) error {
		defer h.Call()()
		return h.Get(ctx, key, obj, api)
	}
	f.List = func(ctx context.Context, c client.WithWatch, list client.ObjectList, opts ...client.ListOption) error {
		defer h.Call()()
		return h.List(ctx, c, list, api, opts...)
	}
	return f
}

// WithWatch is c as a client.WithWatch: itself if it is one, else c
// with a Watch that fails.
func WithWatch(c client.Client) client.WithWatch {
	if w, ok := c.(client.WithWatch); ok {
		return w
	}
	return noWatch{c}
}

type noWatch struct{ client.Client }

func (noWatch) Watch(context.Context, client.ObjectList, ...client.ListOption) (watch.Interface, error) {
	return nil, fmt.Errorf("explore: Watch is not supported")
}

// Comparable returns c behind a pointer. interceptor's clients are
// struct values holding funcs, which Go cannot compare or hash; a manager's
// client is a pointer. What keys state by client, as statuspatch's record
// of this process's own writes does (which Fetch and Fresh consult to
// re-read a stale object through the API reader), can then tell the
// reconcilers' client of one schedule from another's, as in production.
// It also carries the schedule's source (SourceOf).
func Comparable(c client.Client, src *seeded.Source) client.Client {
	if w, ok := c.(client.WithWatch); ok {
		return &pointerWithWatch{w, src}
	}
	return &pointerClient{c, src}
}

type pointerWithWatch struct {
	client.WithWatch
	src *seeded.Source
}

type pointerClient struct {
	client.Client
	src *seeded.Source
}

// SourceOf is the source Comparable gave c, or nil: c is no client of
// Comparable's, or it was given none.
func SourceOf(c client.Client) *seeded.Source {
	switch c := c.(type) {
	case *pointerWithWatch:
		return c.src
	case *pointerClient:
		return c.src
	}
	return nil
}
