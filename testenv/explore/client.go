package explore

import (
	"github.com/statuspatch/statuspatch/testenv/explore/internal/book"
	"github.com/statuspatch/statuspatch/testenv/explore/internal/callsite"
	"github.com/statuspatch/statuspatch/testenv/explore/internal/informers"

	"context"
	"fmt"
	"reflect"
	"strings"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/watch"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/interceptor"

	"github.com/statuspatch/statuspatch/testenv/explore/internal/crinternals"
)

// clients returns the reconcilers' client (cached reads served from the
// recorded versions, as the explorer chooses; writes to the server,
// recorded) and the API reader (newest versions, recorded). Each call
// holds the run's callLock (calllock.go): a reconcile may call them from
// goroutines of its own.
func (r *run) clients() (cached client.Client, api client.Client) {
	base := withWatch(r.server)
	writes := interceptor.Funcs{
		Create: func(ctx context.Context, c client.WithWatch, obj client.Object, opts ...client.CreateOption) error {
			defer r.calls.call()()
			if dryRun((&client.CreateOptions{}).ApplyOptions(opts).DryRun) {
				return c.Create(ctx, obj, opts...) // stores nothing (writeaside.go)
			}
			return r.write(ctx, "create", obj, nil, func(ctx context.Context, obj client.Object, _ client.Patch) error { return c.Create(ctx, obj, opts...) })
		},
		Update: func(ctx context.Context, c client.WithWatch, obj client.Object, opts ...client.UpdateOption) error {
			defer r.calls.call()()
			if dryRun((&client.UpdateOptions{}).ApplyOptions(opts).DryRun) {
				return c.Update(ctx, obj, opts...)
			}
			return r.write(ctx, "update", obj, nil, func(ctx context.Context, obj client.Object, _ client.Patch) error { return c.Update(ctx, obj, opts...) })
		},
		Patch: func(ctx context.Context, c client.WithWatch, obj client.Object, p client.Patch, opts ...client.PatchOption) error {
			defer r.calls.call()()
			if dryRun((&client.PatchOptions{}).ApplyOptions(opts).DryRun) {
				return c.Patch(ctx, obj, p, opts...)
			}
			return r.write(ctx, applyVerb("", p), obj, p, func(ctx context.Context, obj client.Object, p client.Patch) error {
				return c.Patch(ctx, obj, p, opts...)
			})
		},
		Delete: func(ctx context.Context, c client.WithWatch, obj client.Object, opts ...client.DeleteOption) error {
			defer r.calls.call()()
			if dryRun((&client.DeleteOptions{}).ApplyOptions(opts).DryRun) {
				return c.Delete(ctx, obj, opts...)
			}
			return r.write(ctx, "delete", obj, nil, func(ctx context.Context, obj client.Object, _ client.Patch) error { return c.Delete(ctx, obj, opts...) })
		},
		DeleteAllOf: func(ctx context.Context, c client.WithWatch, obj client.Object, opts ...client.DeleteAllOfOption) error {
			defer r.calls.call()()
			if dryRun((&client.DeleteAllOfOptions{}).ApplyOptions(opts).DryRun) {
				return c.DeleteAllOf(ctx, obj, opts...)
			}
			return r.deleteAllOf(ctx, c, obj, opts)
		},
		Apply: func(ctx context.Context, c client.WithWatch, ac runtime.ApplyConfiguration, opts ...client.ApplyOption) error {
			defer r.calls.call()()
			if dryRun((&client.ApplyOptions{}).ApplyOptions(opts).DryRun) {
				return c.Apply(ctx, ac, opts...)
			}
			return r.apply(ctx, "apply", ac, func(ctx context.Context, ac runtime.ApplyConfiguration) error { return c.Apply(ctx, ac, opts...) })
		},
		SubResourceUpdate: func(ctx context.Context, c client.Client, sub string, obj client.Object, opts ...client.SubResourceUpdateOption) error {
			defer r.calls.call()()
			if dryRun((&client.SubResourceUpdateOptions{}).ApplyOptions(opts).DryRun) {
				return c.SubResource(sub).Update(ctx, obj, opts...)
			}
			return r.write(ctx, sub+" update", obj, nil, func(ctx context.Context, obj client.Object, _ client.Patch) error {
				return c.SubResource(sub).Update(ctx, obj, opts...)
			})
		},
		SubResourcePatch: func(ctx context.Context, c client.Client, sub string, obj client.Object, p client.Patch, opts ...client.SubResourcePatchOption) error {
			defer r.calls.call()()
			if dryRun((&client.SubResourcePatchOptions{}).ApplyOptions(opts).DryRun) {
				return c.SubResource(sub).Patch(ctx, obj, p, opts...)
			}
			return r.write(ctx, applyVerb(sub+" ", p), obj, p, func(ctx context.Context, obj client.Object, p client.Patch) error {
				return c.SubResource(sub).Patch(ctx, obj, p, opts...)
			})
		},
		SubResourceCreate: func(ctx context.Context, c client.Client, sub string, obj, subObj client.Object, opts ...client.SubResourceCreateOption) error {
			defer r.calls.call()()
			return r.subResourceCreate(ctx, c, sub, obj, subObj, opts)
		},
		Watch: func(context.Context, client.WithWatch, client.ObjectList, ...client.ListOption) (watch.Interface, error) {
			return nil, fmt.Errorf("explore: Watch is not supported: reconcilers get their events from the explorer")
		},
	}
	crinternals.SetIfPresent(&writes, "SubResourceApply", func(args []reflect.Value) error {
		defer r.calls.call()()
		return r.subResourceApply(args)
	})
	cachedFuncs := writes
	cachedFuncs.Get = func(ctx context.Context, _ client.WithWatch, key client.ObjectKey, obj client.Object, _ ...client.GetOption) error {
		defer r.calls.call()()
		return r.get(ctx, key, obj, false)
	}
	cachedFuncs.List = func(ctx context.Context, c client.WithWatch, list client.ObjectList, opts ...client.ListOption) error {
		defer r.calls.call()()
		return r.list(ctx, c, list, false, opts...)
	}
	apiFuncs := writes
	apiFuncs.Get = func(ctx context.Context, _ client.WithWatch, key client.ObjectKey, obj client.Object, _ ...client.GetOption) error {
		defer r.calls.call()()
		return r.get(ctx, key, obj, true)
	}
	apiFuncs.List = func(ctx context.Context, c client.WithWatch, list client.ObjectList, opts ...client.ListOption) error {
		defer r.calls.call()()
		return r.list(ctx, c, list, true, opts...)
	}
	return interceptor.NewClient(base, cachedFuncs), interceptor.NewClient(base, apiFuncs)
}

// get serves a read: the newest version through the API reader, through
// the cache one of the last Options.Versions versions, as chosen.
func (r *run) get(ctx context.Context, key client.ObjectKey, obj client.Object, api bool) error {
	if r.stopped() {
		return errCrashed
	}
	k, err := r.book.KeyOf(obj, key)
	if err != nil {
		return err
	}
	h, err := r.book.Known(ctx, k)
	if err != nil {
		return err
	}
	v := h.Newest()
	uncached := !api && r.cache.UncachedRead(k.GVK, obj)
	rep := repOf(obj)
	window := 0
	if !api && !uncached {
		r.cache.StartInformer(k.GVK, obj)
		inf := informerKey{GVK: k.GVK, Rep: rep}
		low := r.cache.Model.Lowest(k, inf)
		stay := r.cache.WindowLag(inf, h, low)
		lag := r.cache.ChooseLag(len(h.Versions)-low, stay)
		v -= lag
		r.cache.Model.View.Saw(k, rep, v)
		window = r.cache.NoteWindow(inf, lag, stay, r.book.LastAt(h, v), func() string {
			return fmt.Sprintf("%s v%d (newest v%d)", k, v+1, h.Newest()+1)
		})
	}
	if r.trace.cur != nil {
		read := Read{Object: k.String(), Version: v + 1, Newest: h.Newest() + 1, API: api, Uncached: uncached, Informer: informerName(api || uncached, rep), Window: window}
		if !api && !uncached {
			read.OtherAPIServer = r.cache.Model.View.PastLeader(k, rep, v) + 1
		}
		r.trace.cur.step.Reads = append(r.trace.cur.step.Reads, read)
		if v > r.trace.cur.seenOrNone(k) {
			r.trace.cur.seen[k] = v
		}
	}
	content := h.Versions[v]
	if content == nil {
		return apierrors.NewNotFound(r.book.GroupResource(k.GVK), key.Name)
	}
	if u, ok := obj.(*unstructured.Unstructured); ok {
		// A version as a write's answer recorded it may lack its kind
		// (the fake client's status patch answers so): the read names it.
		u.Object = runtime.DeepCopyJSON(content)
		u.SetGroupVersionKind(k.GVK)
		return nil
	}
	return runtime.DefaultUnstructuredConverter.FromUnstructured(runtime.DeepCopyJSON(content), obj)
}

// list reads from the server and records every item as seen at its
// newest version; a cached list (api false) of a cached kind is then
// served from a point of its informer's history, as chosen
// (informers.Cache.CachedList).
func (r *run) list(ctx context.Context, c client.WithWatch, list client.ObjectList, api bool, opts ...client.ListOption) error {
	if r.stopped() {
		return errCrashed
	}
	gvk, err := informers.ListKind(list, r.server.Scheme())
	if err != nil {
		return err
	}
	if !api && !r.cache.UncachedRead(gvk, list) {
		return r.cache.CachedList(ctx, c, list, gvk, opts)
	}
	return r.cache.NewestList(ctx, c, list, api, opts)
}

// sendFunc sends a write of obj (with patch p, nil but for patches) to the
// server, with the options the reconcile gave.
type sendFunc func(ctx context.Context, obj client.Object, p client.Patch) error

// write sends one write, records the version it made, checks the
// per-write invariants and queues the reconcilers of the written kind.
func (r *run) write(ctx context.Context, verb string, obj client.Object, p client.Patch, send sendFunc) (err error) {
	if verb == "create" && obj.GetName() == "" && obj.GetGenerateName() != "" {
		if err := r.nameGenerated(obj); err != nil {
			return err
		}
	}
	if r.held.holdsNext() {
		return r.held.holdWrite(verb, obj, p, func(ctx context.Context, obj client.Object, p client.Patch) error {
			return r.write(ctx, verb, obj, p, send)
		})
	}
	if r.stopped() {
		return errCrashed
	}
	k, err := r.book.KeyOf(obj, client.ObjectKeyFromObject(obj))
	if err != nil {
		return err
	}
	if _, err := r.book.Known(ctx, k); err != nil {
		return err
	}
	w := Write{Verb: verb, Object: k.String(), Based: r.trace.cur.seenOrNone(k) + 1, At: r.trace.cur.sentAt}
	var data []byte
	if p != nil {
		if d, derr := p.Data(obj); derr == nil {
			data, w.Data = d, shorten(string(d), 240)
		}
	}
	lock := lockOf(verb, obj, data)
	w.Kind = callsite.Kind(verb, p, lock)
	if w.At == "" {
		w.At = callsite.Of()
	}
	uid := r.book.UIDOf(k) // the object the server holds, whatever obj says
	defer func() {
		if err != nil {
			return
		}
		if verb == "delete" {
			r.checks.CheckDelete(k, uid, w.Based)
		}
	}()
	sentRV := obj.GetResourceVersion()
	sendErr := send(ctx, obj, p)
	if sendErr == nil && verb != "create" && verb != "delete" {
		// Judged by the version it was computed from (writebase.go).
		w.Based = r.checks.WriteBased(k, lock, sentRV, w.Based)
	}
	return r.recordWrite(ctx, k, w, sendErr, func() (*book.History, bool, error) {
		// The answer to a create, update or patch is the new version; a
		// delete may leave the object (finalizers) or not. So may a write
		// that removed the last finalizer of an object being deleted: the
		// server deleted it, and answered with its last version.
		if verb == "delete" || finalizing(obj) {
			return r.book.Observe(ctx, k)
		}
		content, err := answerContent(obj) // answer.go
		if err != nil {
			return nil, false, fmt.Errorf("explore: %s: %w", k, err)
		}
		h := r.book.Record(k, content, obj.GetResourceVersion())
		changed := r.book.LastChanged()
		if rv := obj.GetResourceVersion(); rv != "" && h.RVs[h.Newest()] == rv {
			// The answer, decoded into obj, is a read: the writer holds
			// the newest version even when its write changed nothing (a
			// no-op patch after a stale read answers with the newest).
			r.trace.cur.seen[k] = h.Newest()
		}
		return h, changed, nil
	})
}

// finalizing reports an answer that may be the last version of a deleted
// object: it is being deleted and has no finalizer left.
func finalizing(obj client.Object) bool {
	return obj.GetDeletionTimestamp() != nil && len(obj.GetFinalizers()) == 0
}

// recordWrite adds w, sent with the answer sendErr, to the step; when it
// succeeded, stored takes the version it made into the history, and a
// version that changed the object queues the reconcilers of its kind.
func (r *run) recordWrite(ctx context.Context, k book.Key, w Write, sendErr error, stored func() (*book.History, bool, error)) error {
	defer func() {
		if sendErr == nil {
			r.maybeCrash()
		}
	}()
	w.Answer = "ok"
	if sendErr != nil {
		w.Answer = sendErr.Error()
	}
	i := len(r.trace.cur.step.Writes)
	r.trace.cur.step.Writes = append(r.trace.cur.step.Writes, w)
	if sendErr != nil {
		r.cache.Lists.Wrote(k.GVK.GroupKind(), "", "", sendErr) // informers.Floors
		return sendErr
	}
	r.trace.cur.applying = strings.HasSuffix(w.Verb, "apply")
	r.trace.cur.judged, r.trace.cur.based = true, w.Based
	prev := r.newestRV(k)
	h, changed, err := stored()
	r.trace.cur.applying, r.trace.cur.judged = false, false
	if err != nil {
		r.cache.Lists.Written(k.GVK.GroupKind())
		return err
	}
	r.cache.Lists.Wrote(k.GVK.GroupKind(), prev, r.newestRV(k), nil)
	if changed {
		if w.Data == "" && h.Newest() > 0 && h.Versions[h.Newest()] != nil {
			r.trace.cur.step.Writes[i].Data = book.DescribeChange(h.Versions[h.Newest()-1], h.Versions[h.Newest()])
		}
		r.trace.cur.step.Writes[i].Version = h.Newest() + 1
		h.By[h.Newest()] = r.trace.cur.step.Index
		r.trace.cur.step.Writes[i].Gone = h.Versions[h.Newest()] == nil
		r.trace.cur.wrote = true
		r.trace.cur.seen[k] = h.Newest()
		r.checks.NoteWritten(k, h)
		r.queue.queueEvent(k)
	}
	return nil
}

func shorten(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "..."
}

func withWatch(c client.Client) client.WithWatch {
	if w, ok := c.(client.WithWatch); ok {
		return w
	}
	return noWatch{c}
}

type noWatch struct{ client.Client }

func (noWatch) Watch(context.Context, client.ObjectList, ...client.ListOption) (watch.Interface, error) {
	return nil, fmt.Errorf("explore: Watch is not supported")
}

// comparableClient returns c behind a pointer. interceptor's clients are
// struct values holding funcs, which Go cannot compare or hash; a manager's
// client is a pointer. What keys state by client, as statuspatch's record
// of this process's own writes does (which Fetch and Fresh consult to
// re-read a stale object through the API reader), can then tell the
// reconcilers' client of one schedule from another's, as in production.
// It also carries the schedule's Source (SourceOf).
func comparableClient(c client.Client, src *Source) client.Client {
	if w, ok := c.(client.WithWatch); ok {
		return &pointerWithWatch{w, src}
	}
	return &pointerClient{c, src}
}

type pointerWithWatch struct {
	client.WithWatch
	src *Source
}

type pointerClient struct {
	client.Client
	src *Source
}
