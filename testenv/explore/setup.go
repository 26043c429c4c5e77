package explore

import (
	servedapi "github.com/statuspatch/statuspatch/testenv/explore/internal/served"

	"context"
	"fmt"
	"net/http"
	"time"

	"github.com/go-logr/logr"
	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/rest"
	k8srecord "k8s.io/client-go/tools/record"
	"k8s.io/client-go/util/workqueue"
	"sigs.k8s.io/controller-runtime/pkg/cache"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/apiutil"
	"sigs.k8s.io/controller-runtime/pkg/config"
	"sigs.k8s.io/controller-runtime/pkg/handler"
	"sigs.k8s.io/controller-runtime/pkg/manager"
	"sigs.k8s.io/controller-runtime/pkg/predicate"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"

	"github.com/statuspatch/statuspatch/testenv/explore/internal/crinternals"
)

// Scenario.Setup runs the operator's own SetupWithManager on a manager
// that builds nothing but records: each controller it completes becomes a
// reconciler of the scenario (named as the controller), and its watches
// (For, Owns, Watches, with their predicates and event handlers) decide
// what each write queues: the explorer calls the operator's handlers with
// the write's event. Setup runs again for every schedule and every
// restart, with the explorer's clients as the manager's GetClient and
// GetAPIReader.

// source is one watch of a controller built by Setup.
type source struct {
	gvk     schema.GroupVersionKind
	handler handler.EventHandler
	preds   []predicate.Predicate
}

// built is one controller Setup completed.
type built struct {
	name    string
	do      reconcile.Reconciler
	forType client.Object
	watches []source
	// early are the informers it starts before its manager is elected
	// (warm-up: warmup.go).
	early []informerKey
	// onCaches are its Kind sources on a cache Setup built (internal/served).
	onCaches []servedapi.Source
}

// notReRunnable is what to look for in a Setup that ran once and not
// again (a panic, or fewer controllers the second time).
const notReRunnable = "Setup runs once when Run starts, then at the start of every schedule and after every crash restart and leader change, " +
	"each time on a new manager; look in it (and in what it calls) for global registrations that refuse a second one " +
	"(Prometheus MustRegister on metrics.Registry or the default registry, flag definitions, a global scheme or webhook registration) " +
	"and for sync.Once, and hoist them out of Setup, run once before Run (docs/explore.md, Your operator's own setup)"

// setupPanic is the error of a panic p in Setup: again, on a run after
// the first, which did not panic, Setup is not re-runnable.
func setupPanic(p any, again bool) error {
	cause, ok := p.(error)
	if !ok {
		cause = fmt.Errorf("%v", p)
	}
	if again {
		return fmt.Errorf("explore: Scenario.Setup is not re-runnable: %w: it panicked on a run after the first, which did not; %s", cause, notReRunnable)
	}
	return fmt.Errorf("explore: Scenario.Setup called what the explorer's manager does not have (a webhook server, metrics, health checks?): %w", cause)
}

// runSetup runs setup on a recording manager over c and api, with the
// operator's manager options opts; again: not for the first time in this
// Run. The field indexes it registers go into indexes, their informers and
// those its controllers start before the election into indexed (nil:
// dropped). proc serves the manager's config (internal/served) and gets the
// caches Setup adds.
func runSetup(setup func(manager.Manager) error, again bool, opts *manager.Options, c client.Client, api client.Reader, indexes fieldIndexes, indexed map[informerKey]bool, proc *servedapi.Process) (out []built, err error) {
	if indexes == nil {
		indexes = fieldIndexes{}
	}
	if indexed == nil {
		indexed = map[informerKey]bool{}
	}
	m := &recordingManager{c: c, api: api, ctrl: controllerOptions(opts), proc: proc, indexer: recordingIndexer{scheme: c.Scheme(), into: indexes, informers: indexed}}
	defer func() {
		if p := recover(); p != nil {
			out, err = nil, setupPanic(p, again)
		}
	}()
	if err := setup(m); err != nil {
		return nil, fmt.Errorf("explore: Scenario.Setup: %w", err)
	}
	for _, r := range m.runnables {
		b, err := inspect(r, c.Scheme())
		if err != nil {
			return nil, err
		}
		for _, k := range b.early {
			indexed[k] = true
		}
		out = append(out, b)
		proc.NoteSources(b.onCaches)
	}
	return out, nil
}

// inspect reads a controller the builder made (crinternals reads
// controller-runtime's internals) and names the kinds it watches.
func inspect(r manager.Runnable, scheme *runtime.Scheme) (built, error) {
	c, err := crinternals.Inspect(r)
	if err != nil {
		return built{}, fmt.Errorf("explore: Scenario.Setup: %w", err)
	}
	b := built{name: c.Name, do: c.Reconciler}
	for _, w := range c.Watches {
		if w.Cache != nil {
			b.onCaches = append(b.onCaches, servedapi.Source{Obj: w.Type})
			b.onCaches[len(b.onCaches)-1].Cache, _ = w.Cache.(cache.Cache)
		}
		gvk, err := apiutil.GVKForObject(w.Type, scheme)
		if err != nil {
			return built{}, fmt.Errorf("explore: controller %q: %w", c.Name, err)
		}
		if w.ForObject && b.forType == nil {
			b.forType = w.Type
		}
		b.watches = append(b.watches, source{gvk: gvk, handler: w.Handler, preds: w.Predicates})
		if c.StartsBeforeElection {
			b.early = append(b.early, informerKey{gvk, repOf(w.Type)})
		}
	}
	if b.forType == nil && len(c.Watches) > 0 {
		b.forType = c.Watches[0].Type // Named(...).Watches(...) only: the first kind
	}
	if b.forType == nil {
		return built{}, fmt.Errorf("explore: controller %q watches nothing", c.Name)
	}
	return b, nil
}

// capture is the queue a handler adds requests to.
type capture struct {
	workqueue.TypedRateLimitingInterface[reconcile.Request]
	added []reconcile.Request
}

func (c *capture) Add(req reconcile.Request)                       { c.added = append(c.added, req) }
func (c *capture) AddRateLimited(req reconcile.Request)            { c.Add(req) }
func (c *capture) AddAfter(req reconcile.Request, _ time.Duration) { c.Add(req) }

// recordingManager is the manager Setup gets: the explorer's clients, and
// Add records the controllers the builder completes. What it does not
// have (a webhook server, Start) panics, reported as an error.
type recordingManager struct {
	manager.Manager
	c         client.Client
	api       client.Reader
	runnables []manager.Runnable
	indexer   recordingIndexer
	ctrl      config.Controller
	proc      *servedapi.Process
}

func (m *recordingManager) Add(r manager.Runnable) error {
	if c, ok := r.(cache.Cache); ok {
		m.proc.AddCache(c) // started with the process (internal/served)
		return nil
	}
	m.runnables = append(m.runnables, r)
	return nil
}
func (m *recordingManager) GetClient() client.Client { return m.c }

// GetCache is nil: the sources the builder makes keep it until Start, which
// the explorer never calls.
func (m *recordingManager) GetCache() cache.Cache       { return nil }
func (m *recordingManager) GetAPIReader() client.Reader { return m.api }

// GetConfig and GetHTTPClient reach the explorer in process: what Setup
// builds from them reads and writes the book (internal/served).
func (m *recordingManager) GetConfig() *rest.Config        { return m.proc.Config() }
func (m *recordingManager) GetHTTPClient() *http.Client    { return m.proc.HTTPClient() }
func (m *recordingManager) GetScheme() *runtime.Scheme     { return m.c.Scheme() }
func (m *recordingManager) GetRESTMapper() meta.RESTMapper { return listKinds{m.c.RESTMapper()} }
func (m *recordingManager) GetLogger() logr.Logger         { return logr.Discard() }
func (m *recordingManager) GetControllerOptions() config.Controller {
	return m.ctrl // controllerOptions (warmup.go)
}
func (m *recordingManager) GetFieldIndexer() client.FieldIndexer { return m.indexer }
func (m *recordingManager) GetEventRecorderFor(string) k8srecord.EventRecorder {
	return &k8srecord.FakeRecorder{}
}
func (m *recordingManager) Elected() <-chan struct{} {
	ch := make(chan struct{})
	close(ch)
	return ch
}

// validateSetup runs Scenario.Setup once, on a client of the backend, and
// adds a reconciler for each controller it builds.
func (st *setupState) validateSetup(opts Options) error {
	if st.s.Setup == nil {
		return nil
	}
	c, err := opts.Backend.begin(context.Background(), nil)
	if err != nil {
		return err
	}
	bs, err := runSetup(st.s.Setup, false, st.s.Manager, c, c, nil, nil, servedapi.New(nil, c))
	if err != nil {
		return err
	}
	if len(bs) == 0 {
		return fmt.Errorf("explore: Scenario.Setup built no controller")
	}
	st.fromSetup = len(st.s.Reconcilers)
	st.s.Reconcilers = append([]Reconciler(nil), st.s.Reconcilers...)
	for _, b := range bs {
		if !namePattern.MatchString(b.name) {
			return fmt.Errorf("explore: Scenario.Setup: controller name %q is not [A-Za-z0-9._-] (give it one with Named)", b.name)
		}
		for _, rc := range st.s.Reconcilers {
			if rc.Name == b.name {
				return fmt.Errorf("explore: Scenario.Setup: controller %q: a reconciler of that name exists", b.name)
			}
		}
		gvk, err := apiutil.GVKForObject(b.forType, opts.Backend.scheme())
		if err != nil {
			return fmt.Errorf("explore: controller %q: %w", b.name, err)
		}
		st.s.Reconcilers = append(st.s.Reconcilers, Reconciler{Name: b.name, For: b.forType})
		st.forKinds = append(st.forKinds, gvk)
		if st.watchedKinds == nil {
			st.watchedKinds = map[schema.GroupVersionKind]bool{}
		}
		st.watchedKinds[gvk] = true
		for _, w := range b.watches {
			st.watchedKinds[w.gvk] = true
		}
		st.ownKinds = append(st.ownKinds, nil)
	}
	return nil
}
