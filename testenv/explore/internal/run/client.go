package run

import (
	"github.com/statuspatch/statuspatch/testenv/explore/internal/book"
	"github.com/statuspatch/statuspatch/testenv/explore/internal/callsite"
	"github.com/statuspatch/statuspatch/testenv/explore/internal/informers"
	"github.com/statuspatch/statuspatch/testenv/explore/internal/intercept"
	"github.com/statuspatch/statuspatch/testenv/explore/internal/outcome"
	servedapi "github.com/statuspatch/statuspatch/testenv/explore/internal/served"

	"context"
	"fmt"
	"reflect"
	"strings"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// clients returns the reconcilers' client (cached reads served from the
// recorded versions, as the explorer chooses; writes to the server,
// recorded) and the API reader (newest versions, recorded), which call
// the run (intercept.Clients). Each call holds the run's callLock
// (calllock.go): a reconcile may call them from goroutines of its own.
func (r *Run) clients() (cached client.Client, api client.Client) {
	return intercept.Clients(r.server, runCalls{r})
}

// runCalls is the run as its clients call it (intercept.Handler).
type runCalls struct{ r *Run }

func (c runCalls) Call() func() { return c.r.calls.call() }
func (c runCalls) Get(ctx context.Context, key client.ObjectKey, obj client.Object, api bool) error {
	return c.r.get(ctx, key, obj, api)
}
func (c runCalls) List(ctx context.Context, wc client.WithWatch, list client.ObjectList, api bool, opts ...client.ListOption) error {
	return c.r.list(ctx, wc, list, api, opts...)
}
func (c runCalls) Write(ctx context.Context, verb string, obj client.Object, p client.Patch, send intercept.Send) error {
	return c.r.write(ctx, verb, obj, p, send)
}
func (c runCalls) Apply(ctx context.Context, verb string, ac runtime.ApplyConfiguration, send intercept.SendApply) error {
	return c.r.apply(ctx, verb, ac, send)
}
func (c runCalls) DeleteAllOf(ctx context.Context, wc client.WithWatch, obj client.Object, opts []client.DeleteAllOfOption) error {
	return c.r.deleteAllOf(ctx, wc, obj, opts)
}
func (c runCalls) SubResourceCreate(ctx context.Context, wc client.Client, sub string, obj, subObj client.Object, opts []client.SubResourceCreateOption) error {
	return c.r.subResourceCreate(ctx, wc, sub, obj, subObj, opts)
}
func (c runCalls) SubResourceApply(args []reflect.Value) error { return c.r.subResourceApply(args) }

// get serves a read: the newest version through the API reader, through
// the cache one of the last Options.Versions versions, as chosen.
func (r *Run) get(ctx context.Context, key client.ObjectKey, obj client.Object, api bool) error {
	if r.stopped() {
		return errCrashed
	}
	k, err := r.Book.KeyOf(obj, key)
	if err != nil {
		return err
	}
	h, err := r.Book.Known(ctx, k)
	if err != nil {
		return err
	}
	v := h.Newest()
	uncached := !api && r.Cache.UncachedRead(k.GVK, obj)
	rep := informers.RepOf(obj)
	window := 0
	if !api && !uncached {
		r.Cache.StartInformer(k.GVK, obj)
		inf := informers.Key{GVK: k.GVK, Rep: rep}
		low := r.Cache.Model.Lowest(k, inf)
		stay := r.Cache.WindowLag(inf, h, low)
		lag := r.Cache.ChooseLag(len(h.Versions)-low, stay)
		r.Cache.Trace.Served(k.GVK.Kind, len(h.Versions)-low, lag)
		v -= lag
		r.Cache.Model.View.Saw(k, rep, v)
		window = r.Cache.NoteWindow(inf, lag, stay, r.Book.LastAt(h, v), func() string {
			return fmt.Sprintf("%s v%d (newest v%d)", k, v+1, h.Newest()+1)
		})
	}
	if r.Trace.Cur != nil {
		read := outcome.Read{Object: k.String(), Version: v + 1, Newest: h.Newest() + 1, API: api, Uncached: uncached, Informer: informerName(api || uncached, rep), Window: window}
		if !api && !uncached {
			read.OtherAPIServer = r.Cache.Model.View.PastLeader(k, rep, v) + 1
		}
		r.Trace.Cur.Step.Reads = append(r.Trace.Cur.Step.Reads, read)
		if v > r.Trace.Cur.seenOrNone(k) {
			r.Trace.Cur.Seen[k] = v
		}
	}
	content := h.Versions[v]
	if content == nil {
		return apierrors.NewNotFound(r.Book.GroupResource(k.GVK), key.Name)
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
func (r *Run) list(ctx context.Context, c client.WithWatch, list client.ObjectList, api bool, opts ...client.ListOption) error {
	if r.stopped() {
		return errCrashed
	}
	gvk, err := informers.ListKind(list, r.server.Scheme())
	if err != nil {
		return err
	}
	if !api && !r.Cache.UncachedRead(gvk, list) {
		return r.Cache.CachedList(ctx, c, list, gvk, opts)
	}
	return r.Cache.NewestList(ctx, c, list, api, opts)
}

// write sends one write, records the version it made, checks the
// per-write invariants and queues the reconcilers of the written kind.
func (r *Run) write(ctx context.Context, verb string, obj client.Object, p client.Patch, send intercept.Send) (err error) {
	if verb == "create" && obj.GetName() == "" && obj.GetGenerateName() != "" {
		if err := r.nameGenerated(obj); err != nil {
			return err
		}
	}
	if r.Held.holdsNext() {
		return r.Held.holdWrite(verb, obj, p, func(ctx context.Context, obj client.Object, p client.Patch) error {
			return r.write(ctx, verb, obj, p, send)
		})
	}
	if r.stopped() {
		return errCrashed
	}
	k, err := r.Book.KeyOf(obj, client.ObjectKeyFromObject(obj))
	if err != nil {
		return err
	}
	if _, err := r.Book.Known(ctx, k); err != nil {
		return err
	}
	w := outcome.Write{Verb: verb, Object: k.String(), Based: r.Trace.Cur.seenOrNone(k) + 1, At: r.Trace.Cur.sentAt}
	var data []byte
	if p != nil {
		if d, derr := p.Data(obj); derr == nil {
			data, w.Data = d, intercept.Shorten(string(d), 240)
		}
	}
	lock := intercept.LockOf(verb, obj, data)
	w.Kind = callsite.Kind(verb, p, lock)
	if w.At == "" {
		w.At = callsite.Of()
	}
	uid := r.Book.UIDOf(k) // the object the server holds, whatever obj says
	defer func() {
		if err != nil {
			return
		}
		if verb == "delete" {
			r.Checks.CheckDelete(k, uid, w.Based)
		}
	}()
	sentRV := obj.GetResourceVersion()
	sendErr := send(ctx, obj, p)
	if sendErr == nil && verb != "create" && verb != "delete" {
		// Judged by the version it was computed from (WriteBased, intercept.LockOf).
		w.Based = r.Checks.WriteBased(k, lock, sentRV, w.Based)
	}
	return r.recordWrite(ctx, k, w, sendErr, func() (*book.History, bool, error) {
		// The answer to a create, update or patch is the new version; a
		// delete may leave the object (finalizers) or not. So may a write
		// that removed the last finalizer of an object being deleted: the
		// server deleted it, and answered with its last version.
		if verb == "delete" || intercept.Finalizing(obj) {
			return r.Book.Observe(ctx, k)
		}
		content, err := intercept.AnswerContent(obj)
		if err != nil {
			return nil, false, fmt.Errorf("explore: %s: %w", k, err)
		}
		h := r.Book.Record(k, content, obj.GetResourceVersion())
		changed := r.Book.LastChanged()
		if rv := obj.GetResourceVersion(); rv != "" && h.RVs[h.Newest()] == rv {
			// The answer, decoded into obj, is a read: the writer holds
			// the newest version even when its write changed nothing (a
			// no-op patch after a stale read answers with the newest).
			r.Trace.Cur.Seen[k] = h.Newest()
		}
		return h, changed, nil
	})
}

// recordWrite adds w, sent with the answer sendErr, to the step; when it
// succeeded, stored takes the version it made into the history, and a
// version that changed the object queues the reconcilers of its kind.
func (r *Run) recordWrite(ctx context.Context, k book.Key, w outcome.Write, sendErr error, stored func() (*book.History, bool, error)) error {
	defer func() {
		if sendErr == nil {
			r.maybeCrash()
		}
	}()
	w.Answer = "ok"
	if sendErr != nil {
		w.Answer = sendErr.Error()
	}
	i := len(r.Trace.Cur.Step.Writes)
	r.Trace.Cur.Step.Writes = append(r.Trace.Cur.Step.Writes, w)
	if sendErr != nil {
		r.Cache.Lists.Wrote(k.GVK.GroupKind(), "", "", sendErr) // informers.Floors
		return sendErr
	}
	r.Trace.Cur.applying = strings.HasSuffix(w.Verb, "apply")
	r.Trace.Cur.judged, r.Trace.Cur.based = true, w.Based
	prev := r.newestRV(k)
	h, changed, err := stored()
	r.Trace.Cur.applying, r.Trace.Cur.judged = false, false
	if err != nil {
		r.Cache.Lists.Written(k.GVK.GroupKind())
		return err
	}
	r.Cache.Lists.Wrote(k.GVK.GroupKind(), prev, r.newestRV(k), nil)
	if changed {
		if w.Data == "" && h.Newest() > 0 && h.Versions[h.Newest()] != nil {
			r.Trace.Cur.Step.Writes[i].Data = book.DescribeChange(h.Versions[h.Newest()-1], h.Versions[h.Newest()])
		}
		r.Trace.Cur.Step.Writes[i].Version = h.Newest() + 1
		h.By[h.Newest()] = r.Trace.Cur.Step.Index
		r.Trace.Cur.Step.Writes[i].Gone = h.Versions[h.Newest()] == nil
		r.Trace.Cur.wrote = true
		r.Trace.Cur.Seen[k] = h.Newest()
		r.Checks.NoteWritten(k, h)
		r.Queue.QueueEvent(k)
	}
	return nil
}

// informerName is what Read.Informer says of a read through rep's
// informer; nothing for a read that no informer served.
func informerName(fresh bool, rep servedapi.Rep) string {
	if fresh {
		return ""
	}
	return rep.String()
}
