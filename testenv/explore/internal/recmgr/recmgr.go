package recmgr

import (
	"context"
	"fmt"
	"net/http"
	goruntime "runtime"
	"runtime/debug"
	"strings"

	"github.com/go-logr/logr"
	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/rest"
	k8srecord "k8s.io/client-go/tools/record"
	"sigs.k8s.io/controller-runtime/pkg/cache"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/apiutil"
	"sigs.k8s.io/controller-runtime/pkg/config"
	"sigs.k8s.io/controller-runtime/pkg/handler"
	"sigs.k8s.io/controller-runtime/pkg/manager"
	"sigs.k8s.io/controller-runtime/pkg/predicate"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"

	"github.com/statuspatch/statuspatch/testenv/explore/internal/crinternals"
	"github.com/statuspatch/statuspatch/testenv/explore/internal/served"
)

// Watch is one watch of a controller Setup built: a kind, the handler
// that turns its events into requests, and the predicates that filter
// them.
type Watch struct {
	GVK     schema.GroupVersionKind
	Handler handler.EventHandler
	Preds   []predicate.Predicate
}

// Controller is one controller Setup completed.
type Controller struct {
	Name string
	Do   reconcile.Reconciler
	// For is its For object (of Named(...).Watches(...) only, the first
	// kind it watches).
	For     client.Object
	Watches []Watch
	// OnCaches are its Kind sources on a cache Setup built (internal/served).
	OnCaches []served.Source
	// Channels are its channel sources (source.Channel), whose events the
	// run delivers in steps of their own (internal/run, pushes.go).
	Channels []crinternals.Channel
}

// Env is what the recording manager hands Setup: the explorer's clients
// (GetClient, GetAPIReader), the controller options (GetControllerOptions),
// the process that serves the manager's config (GetConfig, GetHTTPClient)
// and gets the caches Setup adds; and where what Setup registers goes.
type Env struct {
	Client     client.Client
	API        client.Reader
	Controller config.Controller
	Proc       *served.Process
	// Indexes gets the field indexes Setup registers (nil: dropped).
	Indexes Indexes
	// Early, if set, is told of each informer that starts before the
	// manager is elected: one a field index is registered on, and each of
	// a controller's that starts before the election (warm-up).
	Early func(gvk schema.GroupVersionKind, obj client.Object)
	// Stores answer the stores of the informers mgr.GetCache() gives
	// (store.go; nil: GetInformer is a LackedCache).
	Stores Stores
}

// Run runs setup on a recording manager of env; again: not for the first
// time in this Run. It returns the controllers Setup completed, in order.
// A panic in setup is an error, which on a run after the first says that
// Setup is not re-runnable.
func Run(setup func(manager.Manager) error, again bool, env Env) (out []Controller, err error) {
	if env.Indexes == nil {
		env.Indexes = Indexes{}
	}
	if env.Early == nil {
		env.Early = func(schema.GroupVersionKind, client.Object) {}
	}
	c := env.Client
	m := &recordingManager{c: c, api: env.API, ctrl: env.Controller, proc: env.Proc, stores: env.Stores, indexer: indexer{scheme: c.Scheme(), into: env.Indexes, early: env.Early}}
	defer func() {
		if p := recover(); p != nil {
			out, err = nil, setupPanic(p, again, lackedMethod(debug.Stack()))
		}
	}()
	if err := setup(m); err != nil {
		return nil, fmt.Errorf("explore: Scenario.Setup: %w", err)
	}
	for _, r := range m.runnables {
		if !crinternals.IsController(r) {
			return nil, fmt.Errorf("explore: Scenario.Setup added a runnable that is not a controller or a cache with mgr.Add (%s): "+
				"the explorer does not run it, as what it does would happen outside the steps a schedule chooses; "+
				"leave it out of Setup (what it writes is then not explored)", crinternals.RunnableName(r))
		}
		b, err := inspect(r, c.Scheme(), env.Early)
		if err != nil {
			return nil, err
		}
		out = append(out, b)
		env.Proc.NoteSources(b.OnCaches)
	}
	return out, nil
}

// NotReRunnable is what to look for in a Setup that ran once and not
// again (a panic, or fewer controllers the second time).
const NotReRunnable = "Setup runs once when Run starts, then at the start of every schedule and after every crash restart and leader change, " +
	"each time on a new manager; look in it (and in what it calls) for global registrations that refuse a second one " +
	"(Prometheus MustRegister on metrics.Registry or the default registry, flag definitions, a global scheme or webhook registration) " +
	"and for sync.Once, and hoist them out of Setup, run once before Run (docs/explore.md, Your operator's own setup)"

// setupPanic is the error of a panic p in Setup: again, on a run after
// the first, which did not panic, Setup is not re-runnable. A method the
// recording manager lacks panics as a nil dereference (runtime.Error);
// any other panic is the operator's own code's (karpenter's Register
// panics "options doesn't exist in context" without the options its
// main puts in the context it passes).
// lacked is the method of the manager.Manager interface Setup called
// that the recording manager lacks ("" if the panic is not in one).
func setupPanic(p any, again bool, lacked string) error {
	cause, ok := p.(error)
	if !ok {
		cause = fmt.Errorf("%v", p)
	}
	if lc, ok := AsLackedCache(p); ok {
		return fmt.Errorf("explore: Scenario.Setup called %w", lc)
	}
	if again {
		return fmt.Errorf("explore: Scenario.Setup is not re-runnable: %w: it panicked on a run after the first, which did not; %s", cause, NotReRunnable)
	}
	if _, lacks := p.(goruntime.Error); !lacks {
		return fmt.Errorf("explore: Scenario.Setup panicked: %w (in the operator's code: does it need what its main sets up before the controllers, a value in the context it passes, flags, globals?)", cause)
	}
	if lacked == "" {
		return fmt.Errorf("explore: Scenario.Setup called what the explorer's manager does not have (a webhook server, metrics, health checks?): %w", cause)
	}
	hint := "call it outside the function you give Setup"
	if lacked == "GetEventRecorder" {
		hint = "controller-runtime v0.23's events.k8s.io recorder; give Setup a manager.Manager that embeds mgr and has a GetEventRecorder of its own " +
			"(trust-manager's glue, examples/realops5)"
	}
	return fmt.Errorf("explore: Scenario.Setup called manager.%s, which the explorer's manager does not have (%s): %w", lacked, hint, cause)
}

// lackedMethod is the method of recordingManager a panic's stack shows
// it in, if the compiler made it: a method the recording manager does not
// define is promoted from its nil embedded manager.Manager by a wrapper,
// the frame "recmgr.(*recordingManager).<Method>(...)" at
// "<autogenerated>", where the nil dereference panics.
func lackedMethod(stack []byte) string {
	return promotedMethod(stack, "recmgr.(*recordingManager).")
}

// promotedMethod is the method of a panic's stack whose frame is frame
// followed by the method's name, autogenerated: promoted from a nil
// embedded interface.
func promotedMethod(stack []byte, frame string) string {
	lines := strings.Split(string(stack), "\n")
	for k, line := range lines {
		i := strings.Index(line, frame)
		if i < 0 || k+1 == len(lines) || !strings.Contains(lines[k+1], "<autogenerated>") {
			continue
		}
		name := line[i+len(frame):]
		if j := strings.IndexByte(name, '('); j > 0 {
			return name[:j]
		}
	}
	return ""
}

// inspect reads a controller the builder made (crinternals reads
// controller-runtime's internals) and names the kinds it watches.
func inspect(r manager.Runnable, scheme *runtime.Scheme, early func(schema.GroupVersionKind, client.Object)) (Controller, error) {
	c, err := crinternals.Inspect(r)
	if err != nil {
		return Controller{}, fmt.Errorf("explore: Scenario.Setup: %w", err)
	}
	b := Controller{Name: c.Name, Do: c.Reconciler, Channels: c.Channels}
	for _, w := range c.Watches {
		if w.Cache != nil && !IsNoCache(w.Cache) { // one the operator built
			b.OnCaches = append(b.OnCaches, served.Source{Obj: w.Type})
			b.OnCaches[len(b.OnCaches)-1].Cache, _ = w.Cache.(cache.Cache)
		}
		gvk, err := apiutil.GVKForObject(w.Type, scheme)
		if err != nil {
			return Controller{}, fmt.Errorf("explore: controller %q: %w", c.Name, err)
		}
		if w.ForObject && b.For == nil {
			b.For = w.Type
		}
		b.Watches = append(b.Watches, Watch{GVK: gvk, Handler: w.Handler, Preds: w.Predicates})
		if c.StartsBeforeElection {
			early(gvk, w.Type)
		}
	}
	if b.For == nil && len(c.Watches) > 0 {
		b.For = c.Watches[0].Type // Named(...).Watches(...) only: the first kind
	}
	if b.For == nil && len(c.Channels) > 0 {
		return Controller{}, fmt.Errorf("explore: controller %q watches only channels (%s), no kind: the explorer names a reconcile by a kind it watches", c.Name, c.Channels[0].Name)
	}
	if b.For == nil {
		return Controller{}, fmt.Errorf("explore: controller %q watches nothing", c.Name)
	}
	return b, nil
}

// recordingManager is the manager Setup gets: the explorer's clients, and
// Add records the controllers the builder completes. What it does not
// have (a webhook server, Start) panics, reported as an error.
type recordingManager struct {
	manager.Manager
	c         client.Client
	api       client.Reader
	runnables []manager.Runnable
	indexer   indexer
	ctrl      config.Controller
	proc      *served.Process
	stores    Stores
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

// ContextOf is the context of the process whose Setup got mgr (served's
// Process.Context), and false for a manager the explorer did not make.
func ContextOf(mgr manager.Manager) (context.Context, bool) {
	m, ok := mgr.(*recordingManager)
	if !ok || m.proc == nil {
		return nil, false
	}
	return m.proc.Context(), true
}

// GetCache is noCache (nocache.go): the sources the builder makes keep it
// until Start, which the explorer never calls; its informers' stores
// answer from Env.Stores (store.go).
func (m *recordingManager) GetCache() cache.Cache       { return noCache{stores: m.stores} }
func (m *recordingManager) GetAPIReader() client.Reader { return m.api }

// GetConfig and GetHTTPClient reach the explorer in process: what Setup
// builds from them reads and writes the book (internal/served).
func (m *recordingManager) GetConfig() *rest.Config        { return m.proc.Config() }
func (m *recordingManager) GetHTTPClient() *http.Client    { return m.proc.HTTPClient() }
func (m *recordingManager) GetScheme() *runtime.Scheme     { return m.c.Scheme() }
func (m *recordingManager) GetRESTMapper() meta.RESTMapper { return listKinds{m.c.RESTMapper()} }
func (m *recordingManager) GetLogger() logr.Logger         { return logr.Discard() }
func (m *recordingManager) GetControllerOptions() config.Controller {
	return m.ctrl // the explorer's, from the operator's (Env.Controller)
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

// Indexes are the field indexes Setup registered, by kind and field.
type Indexes map[schema.GroupVersionKind]map[string]client.IndexerFunc

// indexer is the manager's field indexer: it records.
type indexer struct {
	scheme *runtime.Scheme
	into   Indexes
	early  func(schema.GroupVersionKind, client.Object)
}

func (i indexer) IndexField(_ context.Context, obj client.Object, field string, fn client.IndexerFunc) error {
	gvk, err := apiutil.GVKForObject(obj, i.scheme)
	if err != nil {
		return fmt.Errorf("explore: IndexField %q: %w", field, err)
	}
	if fn == nil {
		return fmt.Errorf("explore: IndexField %q of %s: nil indexer", field, gvk.Kind)
	}
	if i.into[gvk] == nil {
		i.into[gvk] = map[string]client.IndexerFunc{}
	}
	i.into[gvk][field] = fn
	i.early(gvk, obj)
	return nil
}

// listKinds is the manager's RESTMapper: the backend's, which maps a
// kind's list kind (GizmoList) where a discovery mapper does (it adds
// KindList for every kind it lists) and a static one may not (testenv's).
// controller-runtime asks for it: a namespace-scoped cache's List asks
// whether the list's kind is namespaced.
type listKinds struct{ meta.RESTMapper }

func (m listKinds) RESTMapping(gk schema.GroupKind, versions ...string) (*meta.RESTMapping, error) {
	rm, err := m.RESTMapper.RESTMapping(gk, versions...)
	kind, isList := strings.CutSuffix(gk.Kind, "List")
	if err == nil || !isList || kind == "" || !meta.IsNoMatchError(err) {
		return rm, err
	}
	item, ierr := m.RESTMapper.RESTMapping(schema.GroupKind{Group: gk.Group, Kind: kind}, versions...)
	if ierr != nil {
		return nil, err
	}
	out := *item
	out.GroupVersionKind.Kind = gk.Kind
	return &out, nil
}
