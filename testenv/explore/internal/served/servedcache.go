package served

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"sort"
	"strconv"
	"sync"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/cache"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// A second cache: what an operator builds from the manager's config
// (restconfig.go) and adds with mgr.Add, as trust-manager's target cache.
// The explorer starts it with the process (each Setup's on its own) and
// stops it with the process; its informers list the book's newest
// versions through the process's API client, and their watches get the
// book's changes at one point only: the start of each step, where the
// explorer waits until the cache holds the newest version of every object
// it serves. A read through it in a step so sees every write made before
// the step and none made in it (the reconcile's own included): a lag the
// explorer does not choose, the same on every run of the schedule, so a
// seed replays it.

// Process is one process's config: its API client, the caches Setup
// added, the lists and watches their informers opened.
type Process struct {
	book   Book // nil: Run's first check of Setup, which serves nothing
	api    client.Client
	mapper meta.RESTMapper
	scheme *runtime.Scheme
	caches []cache.Cache
	// sources are the Kind sources on an added cache: a controller's start
	// would get their informers, so the explorer does.
	sources []Source
	// ctx is the process's life (Context): Stop cancels it.
	ctx    context.Context
	cancel context.CancelFunc

	mu        sync.Mutex
	stopped   bool
	inflight  sync.WaitGroup
	lists     map[string]Request // by the resourceVersion the list answered
	listed    map[string]map[types.NamespacedName]map[string]any
	unwatched map[string]bool // lists of an informer no watch has started from
	watches   []*watchStream
	n         int
	lastErr   string // the last Request refused, for an error that waited
}

// Source is a controller's Kind source on a cache Setup added: a
// controller's start would get its informer, so the explorer does.
type Source struct {
	Cache cache.Cache
	Obj   client.Object
}

// watchStream is one informer's watch: what it was sent of each object.
type watchStream struct {
	q    Request
	sent map[types.NamespacedName]map[string]any
	w    *io.PipeWriter
}

// New is the served API of one process, onto book (nil: Run's first
// check of Setup, which serves only discovery) through api, the
// process's recording client.
func New(book Book, api client.Client) *Process {
	p := &Process{book: book, api: api,
		lists: map[string]Request{}, listed: map[string]map[types.NamespacedName]map[string]any{}, unwatched: map[string]bool{}}
	p.ctx, p.cancel = context.WithCancel(context.Background())
	if api != nil {
		p.mapper, p.scheme = api.RESTMapper(), api.Scheme()
	}
	return p
}

// started names the informers of the second cache that have listed, by
// kind, Rep, namespace and selectors, sorted and each once (a
// relist is the same informer): for the explorer's state hash (internal/reset's State), as an
// informer started in a step lists the newest versions, the step's own
// writes included, where one started before serves the step's start.
// Nil when none has.
func (p *Process) Started() []string {
	if p == nil {
		return nil
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	set := map[string]bool{}
	for _, q := range p.lists {
		set[q.ListName()] = true
	}
	var out []string
	for s := range set {
		out = append(out, s)
	}
	sort.Strings(out)
	return out
}

// listName names an informer's list or watch: kind, Rep,
// namespace, selectors.
func (q Request) ListName() string {
	return q.GVK.String() + "|" + q.Rep.String() + "|ns=" + q.NS + "|labels=" + q.Labels.String() + "|fields=" + q.Fields.String()
}

// barrierTimeout bounds a wait for the cache: only a cache that never
// takes what it was sent (a transform that drops resourceVersion) hits it.
const barrierTimeout = time.Minute

// NoteSources keeps the Kind sources among srcs that are on a cache
// added with AddCache.
func (p *Process) NoteSources(srcs []Source) {
	for _, s := range srcs {
		for _, c := range p.caches {
			if s.Cache == c {
				p.sources = append(p.sources, s)
			}
		}
	}
}

// AddCache keeps c, a cache Setup built from the process's config and
// added with mgr.Add: started with the process (Start), synced at each
// step's start (Sync).
func (p *Process) AddCache(c cache.Cache) { p.caches = append(p.caches, c) }

// enter counts a Request in flight; false once the process stopped.
func (p *Process) enter() bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.stopped {
		return false
	}
	p.inflight.Add(1)
	return true
}

// list serves a LIST: the newest versions, through the API client. An
// informer's (it asks for a resourceVersion) is answered with a
// resourceVersion of the explorer's, which its watch starts from.
func (p *Process) list(ctx context.Context, req *http.Request, q Request) (map[string]any, error) {
	ul := &unstructured.UnstructuredList{}
	ul.SetGroupVersionKind(q.GVK.GroupVersion().WithKind(q.GVK.Kind + "List"))
	var opts []client.ListOption // none empty: the fake client refuses an empty field selector
	if !q.Labels.Empty() {
		opts = append(opts, client.MatchingLabelsSelector{Selector: q.Labels})
	}
	if !q.Fields.Empty() {
		opts = append(opts, client.MatchingFieldsSelector{Selector: q.Fields})
	}
	if q.NS != "" {
		opts = append(opts, client.InNamespace(q.NS))
	}
	_, informer := req.URL.Query()["resourceVersion"]
	err := p.api.List(ctx, ul, opts...)
	if p.book.Crashed(err) && informer {
		// An informer the crashed process starts (a cache read after the
		// crash): it gets its list, unrecorded, or the read would wait
		// for it forever; the process is replaced after the step.
		err = p.book.ListUnrecorded(ctx, ul, opts...)
	}
	if err != nil {
		return nil, err
	}
	sent := map[types.NamespacedName]map[string]any{}
	items := make([]any, 0, len(ul.Items))
	for _, it := range ul.Items {
		it.SetGroupVersionKind(q.GVK)
		sent[types.NamespacedName{Namespace: it.GetNamespace(), Name: it.GetName()}] = it.Object
		items = append(items, asRep(it.Object, q.Rep))
	}
	rv := ul.GetResourceVersion()
	if informer {
		rv = p.NoteList(q, sent)
	}
	out := map[string]any{"apiVersion": q.GVK.GroupVersion().String(), "kind": q.GVK.Kind + "List",
		"metadata": map[string]any{"resourceVersion": rv}, "items": items}
	if q.Rep == MetadataRep {
		out["apiVersion"], out["kind"] = "meta.k8s.io/v1", "PartialObjectMetadataList"
	}
	return out, nil
}

// NoteList keeps q, an informer's list that was sent sent, under a
// resourceVersion of the explorer's, which it returns: the watch that
// starts from it is sent what changed since (Sync).
func (p *Process) NoteList(q Request, sent map[types.NamespacedName]map[string]any) string {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.n++
	rv := "explore-" + strconv.Itoa(p.n)
	p.lists[rv], p.listed[rv], p.unwatched[rv] = q, sent, true
	return rv
}

// openWatch starts a watch from the list whose resourceVersion it names:
// an informer's. Any other (a client's Watch: the patcher's watcher made
// from the manager's config) is refused, as the explorer's clients refuse
// Watch: events come from the explorer.
func (p *Process) openWatch(req *http.Request, q Request) (*http.Response, error) {
	p.mu.Lock()
	_, informer := p.lists[q.RV]
	p.mu.Unlock()
	if !informer {
		return p.answer(req, nil, apierrors.NewMethodNotSupported(schema.GroupResource{Group: q.GVK.Group, Resource: q.GVK.Kind},
			"watch (explore: a watch through the manager's config is served to the informers of a cache built from it, not to a client's Watch)"))
	}
	pr, pw := io.Pipe()
	w := &watchStream{q: q, w: pw, sent: map[types.NamespacedName]map[string]any{}}
	p.mu.Lock()
	for k, v := range p.listed[q.RV] {
		w.sent[k] = v
	}
	delete(p.unwatched, q.RV)
	p.watches = append(p.watches, w)
	p.mu.Unlock()
	resp := response(req, http.StatusOK, "")
	resp.Body, resp.ContentLength = pr, -1
	return resp, nil
}

// start starts the added caches, each Kind source's informer first, and
// waits for their first lists.
func (p *Process) Start() error {
	if len(p.caches) == 0 {
		return nil
	}
	if len(p.caches) > 1 {
		return fmt.Errorf("explore: Scenario.Setup added %d caches built from the manager's config; one is modelled (docs/explore.md, Limits)", len(p.caches))
	}
	ctx := p.ctx
	for _, s := range p.sources {
		if _, err := s.Cache.GetInformer(ctx, s.Obj); err != nil {
			return fmt.Errorf("explore: the informer of %T in the cache Setup built: %w", s.Obj, err)
		}
	}
	c := p.caches[0]
	go func() { _ = c.Start(ctx) }()
	synced, cancelSync := context.WithTimeout(ctx, barrierTimeout)
	defer cancelSync()
	if !c.WaitForCacheSync(synced) {
		return fmt.Errorf("explore: the cache Setup built from the manager's config did not sync within %s: %s", barrierTimeout, p.lastError())
	}
	return nil
}

// Context is the process's life, as main.go's signal context is: Stop
// (the explorer's crash restart, leader change or schedule end) cancels
// it. What Setup starts with it (explore.ContextOf) stops with the
// process.
func (p *Process) Context() context.Context { return p.ctx }

// stop stops the caches and their watches, cancels the process's context,
// and waits for the requests in flight: nothing of a stopped process
// reads or writes the book after.
func (p *Process) Stop() {
	if p == nil {
		return
	}
	p.mu.Lock()
	p.stopped = true
	watches := p.watches
	p.mu.Unlock()
	if p.cancel != nil {
		p.cancel()
	}
	for _, w := range watches {
		_ = w.w.Close()
	}
	p.inflight.Wait()
}

// Sync is the barrier at the start of a step: every informer list has its
// watch, every watch is sent the book's changes since what it was sent,
// and the cache holds them. It returns what the watches are, so that what
// the cache covers counts as seen by the step (its reads through it are
// not recorded one by one, the step lists what it held:
// informers.Cache.MarkSeen); nil when the process added no cache.
func (p *Process) Sync(ctx context.Context) ([]Request, error) {
	if p == nil || len(p.caches) == 0 {
		return nil, nil
	}
	var watches []*watchStream
	err := waitUntil(func() (bool, error) {
		p.mu.Lock()
		defer p.mu.Unlock()
		watches = append(watches[:0], p.watches...)
		return len(p.unwatched) == 0, nil
	}, "every informer of the cache Setup built to watch after its list")
	if err != nil {
		return nil, err
	}
	var acks []ack
	for _, w := range watches {
		more, err := p.send(w)
		if err != nil {
			return nil, err
		}
		acks = append(acks, more...)
	}
	c := p.caches[0]
	if err := waitUntil(func() (bool, error) {
		left := acks[:0]
		for _, a := range acks {
			ok, err := a.taken(ctx, c, p.scheme)
			if err != nil {
				return false, err
			}
			if !ok {
				left = append(left, a)
			}
		}
		acks = left
		return len(acks) == 0, nil
	}, "the cache Setup built to take the book's changes"); err != nil {
		return nil, err
	}
	out := make([]Request, len(watches))
	for i, w := range watches {
		out[i] = w.q
	}
	return out, nil
}

// send writes to w the book's changes since what it was sent, as the API
// server's watch would: added, modified, deleted (also an object that no
// longer matches its selectors).
func (p *Process) send(w *watchStream) ([]ack, error) {
	var acks []ack
	for _, o := range p.book.Newest(w.q.GVK) {
		cur, rv := o.Object, o.RV
		if cur != nil {
			cur = runtime.DeepCopyJSON(cur)
			u := unstructured.Unstructured{Object: cur}
			u.SetGroupVersionKind(w.q.GVK)
			u.SetResourceVersion(rv)
		}
		prev, had := w.sent[o.NN]
		in := cur != nil && w.q.Matches(cur)
		var events []map[string]any
		switch {
		case in && had && uidOf(prev) != uidOf(cur):
			// Deleted and created again under the name since: two events.
			events = []map[string]any{{"type": watchDeleted, "object": prev}, {"type": watchAdded, "object": cur}}
		case in && !had:
			events = []map[string]any{{"type": watchAdded, "object": cur}}
		case in && (&unstructured.Unstructured{Object: prev}).GetResourceVersion() != rv:
			events = []map[string]any{{"type": watchModified, "object": cur}}
		case !in && had && cur != nil:
			events = []map[string]any{{"type": watchDeleted, "object": cur}} // it left the selector
		case !in && had:
			events = []map[string]any{{"type": watchDeleted, "object": prev}}
		default:
			continue
		}
		for _, e := range events {
			e["object"] = asRep(e["object"].(map[string]any), w.q.Rep)
			b, err := json.Marshal(e)
			if err != nil {
				return nil, fmt.Errorf("explore: %s: %w", o.Name, err)
			}
			if _, err := w.w.Write(append(b, '\n')); err != nil {
				return nil, fmt.Errorf("explore: the watch of %s in the cache Setup built: %w", w.q.GVK.Kind, err)
			}
		}
		a := ack{q: w.q, nn: o.NN}
		if in {
			w.sent[o.NN] = cur
			a.rv = rv
		} else {
			delete(w.sent, o.NN)
		}
		acks = append(acks, a)
	}
	return acks, nil
}

// uidOf is a version's UID ("" when absent or unset).
func uidOf(v map[string]any) string {
	uid, _, _ := unstructured.NestedString(v, "metadata", "uid")
	return uid
}

const (
	watchAdded    = "ADDED"
	watchModified = "MODIFIED"
	watchDeleted  = "DELETED"
)
