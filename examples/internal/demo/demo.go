// Package demo runs the example operator under contention on an API server
// and measures what each way of writing status does: the generated
// patchers, and the blind baselines. cmd/demo prints the result.
package demo

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/rest"
	"k8s.io/utils/ptr"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/cache"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/config"
	crcontroller "sigs.k8s.io/controller-runtime/pkg/controller"
	"sigs.k8s.io/controller-runtime/pkg/manager"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"

	"github.com/statuspatch/statuspatch/patcher"
	"github.com/statuspatch/statuspatch/testenv"

	demov1 "github.com/statuspatch/statuspatch/examples/api/v1alpha1"
	"github.com/statuspatch/statuspatch/examples/internal/controller"
	"github.com/statuspatch/statuspatch/examples/internal/controller/blind"
)

// Variant is how the Rollout controller writes status.
type Variant int

// The variants.
const (
	Patcher Variant = iota
	BlindMergeFrom
	BlindApply
)

// Variants lists every variant, the patcher first.
var Variants = []Variant{Patcher, BlindMergeFrom, BlindApply}

func (v Variant) String() string {
	switch v {
	case BlindMergeFrom:
		return "blind MergeFrom"
	case BlindApply:
		return "blind SSA"
	default:
		return "patcher"
	}
}

func (v Variant) slug() string {
	return strings.ReplaceAll(strings.ToLower(v.String()), " ", "-")
}

// Config sizes the load.
type Config struct {
	// Rollouts is the number of Rollouts created, all in one Fleet.
	Rollouts int
	// Steps is spec.steps of every Rollout.
	Steps int32
	// Managers is the number of managers running the controllers at once,
	// each reconciling every object (replicas without leader election, or
	// the overlap of a leader hand-over).
	Managers int
	// Workers is MaxConcurrentReconciles of each controller.
	Workers int
	// Timeout bounds the wait for convergence.
	Timeout time.Duration
}

// Result is what one variant did.
type Result struct {
	Variant Variant
	// Reconciles is the number of Rollout reconciles run by the managers.
	Reconciles int64
	// StatusWrites and MetaWrites are the write requests sent (status
	// subresource, main resource), conflicts included.
	StatusWrites, MetaWrites int64
	// Conflicts is the number of 409 responses.
	Conflicts int64
	// Causes breaks Conflicts down by cause (Conflicts also counts the
	// writes of the no-op pass, which has none).
	Causes [numCauses]int64
	// SeenInCache is the number of conflicts with the other manager's write
	// (Rollouts and the Fleet) whose winning version had already reached
	// the losing manager's cache when the losing write was sent.
	SeenInCache int64
	// Retries is the number of extra attempts Retry made (patcher only).
	Retries int64
	// PlansBuilt is the number of plans whose write succeeded.
	PlansBuilt int
	// PlansOverwritten is PlansBuilt minus the plans that remained: plans a
	// reconcile wrote and acted on, silently replaced by another.
	PlansOverwritten int
	// Completed is the number of Rollouts that completed.
	Completed int
	// MembersLost is the number of completed Rollouts missing from the Fleet
	// or recorded there with another plan: lost entries.
	MembersLost int
	// Wall is the time from the first create to the last request.
	Wall time.Duration
	// NoopRequests and NoopWrites are per reconcile of an unchanged,
	// completed Rollout, reading from the cache: all requests, and writes
	// to the Rollout's status. (A blind reconcile may also re-add a lost
	// Fleet entry: a request, but not a Rollout status write.)
	NoopRequests, NoopWrites float64
}

// Lost is the number of lost updates.
func (r Result) Lost() int { return r.PlansOverwritten + r.MembersLost }

// Run runs the load with variant v on env and measures it. Objects live in
// a namespace and a Fleet named after the variant.
func Run(ctx context.Context, env *testenv.Env, cfg Config, v Variant) (Result, error) {
	res := Result{Variant: v}
	ns, fleet := v.slug(), v.slug()
	counted := &counter{}
	rc := rest.CopyConfig(env.Config)
	rc.Wrap(counted.wrap)
	cenv := *env
	cenv.Config = rc

	var plansBuilt atomic.Int64
	onPlan := func(_ client.ObjectKey, _ string, built bool) {
		if built {
			plansBuilt.Add(1)
		}
	}
	reg := prometheus.NewRegistry()
	var reconciles atomic.Int64

	mctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var wg sync.WaitGroup
	errs := make(chan error, cfg.Managers)
	var mgrs []manager.Manager
	wlog := newWriteLog()
	for m := range cfg.Managers {
		menv := cenv
		menv.Config = rest.CopyConfig(rc)
		menv.Config.Wrap(wlog.wrap(m))
		mgr, err := menv.NewManager(manager.Options{
			Cache:      cache.Options{DefaultNamespaces: map[string]cache.Config{ns: {}}},
			Controller: config.Controller{SkipNameValidation: ptr.To(true)},
		})
		if err != nil {
			return res, err
		}
		copts := crcontroller.Options{MaxConcurrentReconciles: cfg.Workers}
		// The Fleet reconciler (every variant) and the patcher variant's
		// Rollout reconciler get their client as the operator's do
		// (controller.NewRolloutReconciler): patcher.ForManager, carrying
		// the manager's API reader and the field owner, plus the registry
		// the retries are counted in.
		pc := patcher.ForManager(mgr, patcher.WithFieldOwner(controller.FieldOwner), patcher.WithMetrics(reg))
		r := newReconciler(v, mgr.GetClient(), pc, onPlan)
		err = ctrl.NewControllerManagedBy(mgr).For(&demov1.Rollout{}).Named("rollout").WithOptions(copts).
			Complete(reconcile.Func(func(ctx context.Context, req reconcile.Request) (reconcile.Result, error) {
				reconciles.Add(1)
				return r.Reconcile(ctx, req)
			}))
		if err != nil {
			return res, err
		}
		fr := &controller.FleetReconciler{Client: pc}
		if err := fr.SetupWithManager(mgr, copts); err != nil {
			return res, err
		}
		if err := wlog.watchArrivals(mctx, m, mgr); err != nil {
			return res, err
		}
		wg.Go(func() { errs <- mgr.Start(mctx) })
		mgrs = append(mgrs, mgr)
	}
	stopAll := func() error {
		cancel()
		wg.Wait()
		close(errs)
		for err := range errs {
			if err != nil {
				return err
			}
		}
		return nil
	}
	for _, mgr := range mgrs {
		if !mgr.GetCache().WaitForCacheSync(ctx) {
			_ = stopAll()
			return res, fmt.Errorf("%s: cache did not sync", v)
		}
	}

	// The load.
	start := time.Now()
	if err := env.Client.Create(ctx, &demov1.Fleet{ObjectMeta: metav1.ObjectMeta{Name: fleet}, Spec: demov1.FleetSpec{MinCompleted: int32(cfg.Rollouts)}}); err != nil {
		_ = stopAll()
		return res, err
	}
	for i := range cfg.Rollouts {
		ro := &demov1.Rollout{
			ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: fmt.Sprintf("rollout-%03d", i)},
			Spec:       demov1.RolloutSpec{Version: "v1", Steps: cfg.Steps, Fleet: fleet},
		}
		if err := env.Client.Create(ctx, ro); err != nil {
			_ = stopAll()
			return res, err
		}
	}
	settled := waitSettled(ctx, env.Client, ns, cfg, counted)
	res.Wall = counted.last().Sub(start)
	if settled != nil {
		_ = stopAll()
		return res, fmt.Errorf("%s: %w", v, settled)
	}
	res.Reconciles = reconciles.Load()
	res.StatusWrites, res.MetaWrites, res.Conflicts = counted.statusWrites.Load(), counted.metaWrites.Load(), counted.conflicts.Load()
	res.Causes, res.SeenInCache = wlog.causes()
	res.Retries = retries(reg)
	res.PlansBuilt = int(plansBuilt.Load())

	// What is left on the server.
	var list demov1.RolloutList
	if err := env.Client.List(ctx, &list, client.InNamespace(ns)); err != nil {
		_ = stopAll()
		return res, err
	}
	f := &demov1.Fleet{}
	if err := env.Client.Get(ctx, client.ObjectKey{Name: fleet}, f); err != nil {
		_ = stopAll()
		return res, err
	}
	members := map[string]string{}
	for _, m := range f.Status.Members {
		members[m.Rollout] = m.PlanID
	}
	plans := 0
	for _, ro := range list.Items {
		if ro.Status.Plan == nil {
			continue
		}
		plans++
		if ro.Status.Phase == demov1.RolloutCompleted {
			res.Completed++
			if members[client.ObjectKeyFromObject(&ro).String()] != ro.Status.Plan.ID {
				res.MembersLost++
			}
		}
	}
	res.PlansOverwritten = res.PlansBuilt - plans

	// No-op reconciles of the unchanged, completed objects: reads from the
	// cache, requests counted.
	noop := &counter{}
	nc := rest.CopyConfig(env.Config)
	nc.Wrap(noop.wrap)
	c, err := client.New(nc, client.Options{Scheme: env.Scheme, Mapper: env.Mapper, Cache: &client.CacheOptions{Reader: mgrs[0].GetCache()}})
	if err != nil {
		_ = stopAll()
		return res, err
	}
	// No manager here: patcher.WithDefaults gives c's patchers the same
	// options, with c, which reads from the cache, as their API reader.
	r := newReconciler(v, c, patcher.WithDefaults(c, patcher.WithAPIReader(c), patcher.WithFieldOwner(controller.FieldOwner), patcher.WithMetrics(nil)), nil)
	for _, ro := range list.Items {
		if _, err := r.Reconcile(ctx, reconcile.Request{NamespacedName: client.ObjectKeyFromObject(&ro)}); err != nil {
			_ = stopAll()
			return res, err
		}
	}
	n := float64(len(list.Items))
	res.NoopRequests = float64(noop.requests.Load()) / n
	res.NoopWrites = float64(noop.rolloutStatusWrites.Load()) / n
	return res, stopAll()
}

// newReconciler returns variant v's Rollout reconciler: the blind ones
// write through c, the patcher's through pc, a client made with
// patcher.ForManager (or, without a manager, patcher.WithDefaults).
func newReconciler(v Variant, c client.Client, pc *patcher.Client, onPlan func(client.ObjectKey, string, bool)) reconcile.Reconciler {
	switch v {
	case BlindMergeFrom:
		return &blind.RolloutReconciler{Client: c, Mode: blind.ModeMergeFrom, OnPlan: onPlan}
	case BlindApply:
		return &blind.RolloutReconciler{Client: c, Mode: blind.ModeApply, OnPlan: onPlan}
	default:
		return &controller.RolloutReconciler{Client: pc, OnPlan: onPlan}
	}
}

// waitSettled waits until every Rollout completed and no request was sent
// for a while.
func waitSettled(ctx context.Context, c client.Client, ns string, cfg Config, counted *counter) error {
	const quiet = 500 * time.Millisecond
	deadline := time.Now().Add(cfg.Timeout)
	for {
		var list demov1.RolloutList
		if err := c.List(ctx, &list, client.InNamespace(ns)); err != nil {
			return err
		}
		done := 0
		for _, ro := range list.Items {
			if ro.Status.Phase == demov1.RolloutCompleted && ro.Status.Plan != nil && int(ro.Status.CompletedSteps) == len(ro.Status.Plan.Steps) {
				done++
			}
		}
		if done == cfg.Rollouts && time.Since(counted.last()) > quiet {
			return nil
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("%d of %d rollouts completed after %s", done, cfg.Rollouts, cfg.Timeout)
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(50 * time.Millisecond):
		}
	}
}

// retries reads the patcher's statuspatch_retry_attempts histogram: the
// attempts beyond the first of every Retry.
func retries(g prometheus.Gatherer) int64 {
	mfs, err := g.Gather()
	if err != nil {
		return -1
	}
	var n int64
	for _, mf := range mfs {
		if mf.GetName() != "statuspatch_retry_attempts" {
			continue
		}
		for _, m := range mf.GetMetric() {
			h := m.GetHistogram()
			n += int64(h.GetSampleSum()) - int64(h.GetSampleCount())
		}
	}
	return n
}

// counter is a rest.Config transport wrapper that counts requests.
type counter struct {
	requests, statusWrites, metaWrites, conflicts atomic.Int64
	rolloutStatusWrites                           atomic.Int64
	lastNanos                                     atomic.Int64
}

func (c *counter) wrap(rt http.RoundTripper) http.RoundTripper {
	return roundTripFunc(func(req *http.Request) (*http.Response, error) {
		watch := req.URL.Query().Get("watch") == "true"
		if !watch {
			c.requests.Add(1)
			c.lastNanos.Store(time.Now().UnixNano())
		}
		if req.Method != http.MethodGet {
			if strings.HasSuffix(req.URL.Path, "/status") {
				c.statusWrites.Add(1)
				if strings.Contains(req.URL.Path, "/rollouts/") {
					c.rolloutStatusWrites.Add(1)
				}
			} else {
				c.metaWrites.Add(1)
			}
		}
		resp, err := rt.RoundTrip(req)
		if err == nil && resp.StatusCode == http.StatusConflict {
			c.conflicts.Add(1)
		}
		if !watch {
			c.lastNanos.Store(time.Now().UnixNano())
		}
		return resp, err
	})
}

func (c *counter) last() time.Time { return time.Unix(0, c.lastNanos.Load()) }

type roundTripFunc func(*http.Request) (*http.Response, error)

func (f roundTripFunc) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }
