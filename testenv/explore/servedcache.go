package explore

import (
	"context"
	"encoding/json"
	"errors"
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

// inProcess is one process's config: its API client, the caches Setup
// added, the lists and watches their informers opened.
type inProcess struct {
	r      *run // nil: Run's first check of Setup, which serves nothing
	api    client.Client
	mapper meta.RESTMapper
	scheme *runtime.Scheme
	caches []cache.Cache
	// sources are the Kind sources on an added cache: a controller's start
	// would get their informers, so the explorer does.
	sources []kindOn
	cancel  context.CancelFunc

	mu        sync.Mutex
	stopped   bool
	inflight  sync.WaitGroup
	lists     map[string]request // by the resourceVersion the list answered
	listed    map[string]map[types.NamespacedName]map[string]any
	unwatched map[string]bool // lists of an informer no watch has started from
	watches   []*watchStream
	n         int
	lastErr   string // the last request refused, for an error that waited
}

type kindOn struct {
	cache cache.Cache
	obj   client.Object
}

// watchStream is one informer's watch: what it was sent of each object.
type watchStream struct {
	q    request
	sent map[types.NamespacedName]map[string]any
	w    *io.PipeWriter
}

func newInProcess(r *run, api client.Client) *inProcess {
	return &inProcess{r: r, api: api, mapper: api.RESTMapper(), scheme: api.Scheme(),
		lists: map[string]request{}, listed: map[string]map[types.NamespacedName]map[string]any{}, unwatched: map[string]bool{}}
}

// started names the informers of the second cache that have listed, by
// kind, representation, namespace and selectors, sorted and each once (a
// relist is the same informer): for the state hash (statehash.go), as an
// informer started in a step lists the newest versions, the step's own
// writes included, where one started before serves the step's start.
// Nil when none has.
func (p *inProcess) started() []string {
	if p == nil {
		return nil
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	set := map[string]bool{}
	for _, q := range p.lists {
		set[q.listName()] = true
	}
	var out []string
	for s := range set {
		out = append(out, s)
	}
	sort.Strings(out)
	return out
}

// listName names an informer's list or watch: kind, representation,
// namespace, selectors.
func (q request) listName() string {
	return q.gvk.String() + "|" + q.rep.String() + "|ns=" + q.ns + "|labels=" + q.labels.String() + "|fields=" + q.fields.String()
}

// barrierTimeout bounds a wait for the cache: only a cache that never
// takes what it was sent (a transform that drops resourceVersion) hits it.
const barrierTimeout = time.Minute

// noteSources keeps b's Kind sources on an added cache.
func (p *inProcess) noteSources(b built) {
	for _, s := range b.onCaches {
		for _, c := range p.caches {
			if s.cache == c {
				p.sources = append(p.sources, s)
			}
		}
	}
}

// enter counts a request in flight; false once the process stopped.
func (p *inProcess) enter() bool {
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
func (p *inProcess) list(ctx context.Context, req *http.Request, q request) (map[string]any, error) {
	ul := &unstructured.UnstructuredList{}
	ul.SetGroupVersionKind(q.gvk.GroupVersion().WithKind(q.gvk.Kind + "List"))
	var opts []client.ListOption // none empty: the fake client refuses an empty field selector
	if !q.labels.Empty() {
		opts = append(opts, client.MatchingLabelsSelector{Selector: q.labels})
	}
	if !q.fields.Empty() {
		opts = append(opts, client.MatchingFieldsSelector{Selector: q.fields})
	}
	if q.ns != "" {
		opts = append(opts, client.InNamespace(q.ns))
	}
	_, informer := req.URL.Query()["resourceVersion"]
	err := p.api.List(ctx, ul, opts...)
	if errors.Is(err, errCrashed) && informer {
		// An informer the crashed process starts (a cache read after the
		// crash): it gets its list, unrecorded, or the read would wait
		// for it forever; the process is replaced after the step.
		err = p.r.server.List(ctx, ul, opts...)
	}
	if err != nil {
		return nil, err
	}
	sent := map[types.NamespacedName]map[string]any{}
	items := make([]any, 0, len(ul.Items))
	for _, it := range ul.Items {
		it.SetGroupVersionKind(q.gvk)
		sent[types.NamespacedName{Namespace: it.GetNamespace(), Name: it.GetName()}] = it.Object
		items = append(items, asRep(it.Object, q.rep))
	}
	rv := ul.GetResourceVersion()
	if informer {
		p.mu.Lock()
		p.n++
		rv = "explore-" + strconv.Itoa(p.n)
		p.lists[rv], p.listed[rv], p.unwatched[rv] = q, sent, true
		p.mu.Unlock()
	}
	out := map[string]any{"apiVersion": q.gvk.GroupVersion().String(), "kind": q.gvk.Kind + "List",
		"metadata": map[string]any{"resourceVersion": rv}, "items": items}
	if q.rep == metadataRep {
		out["apiVersion"], out["kind"] = "meta.k8s.io/v1", "PartialObjectMetadataList"
	}
	return out, nil
}

// openWatch starts a watch from the list whose resourceVersion it names:
// an informer's. Any other (a client's Watch: the patcher's watcher made
// from the manager's config) is refused, as the explorer's clients refuse
// Watch: events come from the explorer.
func (p *inProcess) openWatch(req *http.Request, q request) (*http.Response, error) {
	p.mu.Lock()
	_, informer := p.lists[q.rv]
	p.mu.Unlock()
	if !informer {
		return p.answer(req, nil, apierrors.NewMethodNotSupported(schema.GroupResource{Group: q.gvk.Group, Resource: q.gvk.Kind},
			"watch (explore: a watch through the manager's config is served to the informers of a cache built from it, not to a client's Watch)"))
	}
	pr, pw := io.Pipe()
	w := &watchStream{q: q, w: pw, sent: map[types.NamespacedName]map[string]any{}}
	p.mu.Lock()
	for k, v := range p.listed[q.rv] {
		w.sent[k] = v
	}
	delete(p.unwatched, q.rv)
	p.watches = append(p.watches, w)
	p.mu.Unlock()
	resp := response(req, http.StatusOK, "")
	resp.Body, resp.ContentLength = pr, -1
	return resp, nil
}

// start starts the added caches, each Kind source's informer first, and
// waits for their first lists.
func (p *inProcess) start() error {
	if len(p.caches) == 0 {
		return nil
	}
	if len(p.caches) > 1 {
		return fmt.Errorf("explore: Scenario.Setup added %d caches built from the manager's config; one is modelled (docs/explore.md, Limits)", len(p.caches))
	}
	ctx, cancel := context.WithCancel(context.Background())
	p.cancel = cancel
	for _, s := range p.sources {
		if _, err := s.cache.GetInformer(ctx, s.obj); err != nil {
			return fmt.Errorf("explore: the informer of %T in the cache Setup built: %w", s.obj, err)
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

// stop stops the caches and their watches, and waits for the requests in
// flight: nothing of a stopped process reads or writes the book after.
func (p *inProcess) stop() {
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

// sync is the barrier at the start of a step: every informer list has its
// watch, every watch is sent the book's changes since what it was sent,
// and the cache holds them. What the cache covers counts as seen by the
// step (its reads through it are not recorded one by one, the step lists
// what it held: servedheld.go): a write judged by what its step saw is
// judged as informed by the whole cache.
func (p *inProcess) sync(ctx context.Context) error {
	if p == nil || len(p.caches) == 0 {
		return nil
	}
	var watches []*watchStream
	err := waitUntil(func() (bool, error) {
		p.mu.Lock()
		defer p.mu.Unlock()
		watches = append(watches[:0], p.watches...)
		return len(p.unwatched) == 0, nil
	}, "every informer of the cache Setup built to watch after its list")
	if err != nil {
		return err
	}
	var acks []ack
	for _, w := range watches {
		more, err := p.send(w)
		if err != nil {
			return err
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
		return err
	}
	p.markSeen(watches)
	return nil
}

// markSeen counts as seen by the step every object a watch covers (its
// namespace and field selector) at its newest version: the cache holds it
// so, or holds it not, which a label selector's cache says as much as a
// version does (the object left the selector).
func (p *inProcess) markSeen(watches []*watchStream) {
	s := p.r.cur
	if s == nil {
		return
	}
	for _, w := range watches {
		for _, k := range p.r.order {
			if k.gvk != w.q.gvk || !w.q.covers(k.nn) {
				continue
			}
			if h := p.r.hist[k]; h.newest() > s.seenOrNone(k) {
				s.seen[k] = h.newest()
			}
		}
	}
	p.noteHeld(s, watches)
}

// send writes to w the book's changes since what it was sent, as the API
// server's watch would: added, modified, deleted (also an object that no
// longer matches its selectors).
func (p *inProcess) send(w *watchStream) ([]ack, error) {
	var acks []ack
	for _, k := range p.r.order {
		if k.gvk != w.q.gvk {
			continue
		}
		h := p.r.hist[k]
		cur := h.versions[h.newest()]
		if cur != nil {
			cur = runtime.DeepCopyJSON(cur)
			u := unstructured.Unstructured{Object: cur}
			u.SetGroupVersionKind(k.gvk)
			u.SetResourceVersion(h.rvs[h.newest()])
		}
		prev, had := w.sent[k.nn]
		in := cur != nil && w.q.matches(cur)
		var events []map[string]any
		switch {
		case in && had && uidOfVersion(prev) != uidOfVersion(cur):
			// Deleted and created again under the name since: two events.
			events = []map[string]any{{"type": watchDeleted, "object": prev}, {"type": watchAdded, "object": cur}}
		case in && !had:
			events = []map[string]any{{"type": watchAdded, "object": cur}}
		case in && (&unstructured.Unstructured{Object: prev}).GetResourceVersion() != h.rvs[h.newest()]:
			events = []map[string]any{{"type": watchModified, "object": cur}}
		case !in && had && cur != nil:
			events = []map[string]any{{"type": watchDeleted, "object": cur}} // it left the selector
		case !in && had:
			events = []map[string]any{{"type": watchDeleted, "object": prev}}
		default:
			continue
		}
		for _, e := range events {
			e["object"] = asRep(e["object"].(map[string]any), w.q.rep)
			b, err := json.Marshal(e)
			if err != nil {
				return nil, fmt.Errorf("explore: %s: %w", k, err)
			}
			if _, err := w.w.Write(append(b, '\n')); err != nil {
				return nil, fmt.Errorf("explore: the watch of %s in the cache Setup built: %w", k.gvk.Kind, err)
			}
		}
		a := ack{q: w.q, nn: k.nn}
		if in {
			w.sent[k.nn] = cur
			a.rv = h.rvs[h.newest()]
		} else {
			delete(w.sent, k.nn)
		}
		acks = append(acks, a)
	}
	return acks, nil
}

const (
	watchAdded    = "ADDED"
	watchModified = "MODIFIED"
	watchDeleted  = "DELETED"
)
