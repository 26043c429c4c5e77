package realops4

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/awslabs/operatorpkg/status"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/manager"

	karpv1 "sigs.k8s.io/karpenter/pkg/apis/v1"
	"sigs.k8s.io/karpenter/pkg/cloudprovider/fake"
	"sigs.k8s.io/karpenter/pkg/controllers/nodepool/hash"
	"sigs.k8s.io/karpenter/pkg/controllers/nodepool/readiness"
	"sigs.k8s.io/karpenter/pkg/controllers/nodepool/validation"
	"sigs.k8s.io/karpenter/pkg/operator/options"
	"sigs.k8s.io/karpenter/pkg/test/v1alpha1"

	"github.com/statuspatch/statuspatch/testenv/explore"
)

// karpenterSetup is what karpenter's operator does for the NodePool's
// hash, readiness and validation controllers: the NodePool indexes of
// its setupIndexers (pkg/operator, unexported: restated), then each
// controller's own Register, with karpenter's fake cloud provider, whose
// NodeClass is the TestNodeClass. Register reads the operator's options
// from its context (CPURequests, for its concurrency), as main's context
// has them: without, it panics "options doesn't exist in context".
func karpenterSetup(mgr manager.Manager) error {
	ctx := options.ToContext(context.Background(), &options.Options{CPURequests: 1000})
	for _, f := range []struct {
		field string
		value func(*karpv1.NodePool) string
	}{
		{"spec.template.spec.nodeClassRef.group", func(np *karpv1.NodePool) string { return np.Spec.Template.Spec.NodeClassRef.Group }},
		{"spec.template.spec.nodeClassRef.kind", func(np *karpv1.NodePool) string { return np.Spec.Template.Spec.NodeClassRef.Kind }},
		{"spec.template.spec.nodeClassRef.name", func(np *karpv1.NodePool) string { return np.Spec.Template.Spec.NodeClassRef.Name }},
	} {
		if err := mgr.GetFieldIndexer().IndexField(ctx, &karpv1.NodePool{}, f.field, func(o client.Object) []string {
			return []string{f.value(o.(*karpv1.NodePool))}
		}); err != nil {
			return fmt.Errorf("index %s: %w", f.field, err)
		}
	}
	cp := fake.NewCloudProvider()
	return errors.Join(
		hash.NewController(mgr.GetClient(), cp).Register(ctx, mgr),
		readiness.NewController(mgr.GetClient(), cp).Register(ctx, mgr),
		validation.NewController(mgr.GetClient(), cp).Register(ctx, mgr),
	)
}

func nodePool() *karpv1.NodePool {
	np := &karpv1.NodePool{ObjectMeta: metav1.ObjectMeta{Name: "default"}}
	np.Spec.Template.Spec.NodeClassRef = &karpv1.NodeClassReference{Group: v1alpha1.Group, Kind: "TestNodeClass", Name: "default"}
	np.Spec.Template.Spec.Requirements = []karpv1.NodeSelectorRequirementWithMinValues{{Key: "kubernetes.io/arch", Operator: "In", Values: []string{"amd64"}}}
	return np
}

// karpenterActions are the user's writes, each at any point: relabel the
// NodePool's template (a new hash), mark the NodeClass ready (its
// provider's status), delete the NodeClass.
var karpenterActions = []explore.Action{
	{Name: "relabel", Run: func(ctx context.Context, c client.Client) error {
		return c.Patch(ctx, &karpv1.NodePool{ObjectMeta: metav1.ObjectMeta{Name: "default"}},
			client.RawPatch(types.MergePatchType, []byte(`{"spec":{"template":{"metadata":{"labels":{"team":"a"}}}}}`)))
	}},
	{Name: "nodeclass-ready", Run: func(ctx context.Context, c client.Client) error {
		nc := &v1alpha1.TestNodeClass{}
		if err := c.Get(ctx, client.ObjectKey{Name: "default"}, nc); err != nil {
			return client.IgnoreNotFound(err)
		}
		nc.StatusConditions().SetTrue(status.ConditionReady)
		return client.IgnoreNotFound(c.Status().Update(ctx, nc))
	}},
	{Name: "delete-nodeclass", Run: func(ctx context.Context, c client.Client) error {
		return client.IgnoreNotFound(c.Delete(ctx, &v1alpha1.TestNodeClass{ObjectMeta: metav1.ObjectMeta{Name: "default"}}))
	}},
}

func karpenterScenario() explore.Scenario {
	return explore.Scenario{
		Setup:     karpenterSetup,
		Objects:   []client.Object{&v1alpha1.TestNodeClass{ObjectMeta: metav1.ObjectMeta{Name: "default"}}, nodePool()},
		Actions:   karpenterActions,
		Invariant: karpenterInvariant,
	}
}

// karpenterInvariant is what the three controllers promise in a steady
// state: the NodePool's hash annotations are its template's (the hash
// controller, for drift), its NodeClassReady condition is its NodeClass's
// readiness (readiness: NodeClassNotFound when it is gone,
// NodeClassReadinessUnknown while its Ready is unknown), its
// ValidationSucceeded is true (its spec is valid); both conditions of its
// generation.
func karpenterInvariant(ctx context.Context, r client.Reader) error {
	np := &karpv1.NodePool{}
	if err := r.Get(ctx, client.ObjectKey{Name: "default"}, np); err != nil {
		return client.IgnoreNotFound(err)
	}
	var errs []error
	if got, want := np.Annotations[karpv1.NodePoolHashAnnotationKey], np.Hash(); got != want {
		errs = append(errs, fmt.Errorf("NodePool default: hash annotation %q, want its template's %q", got, want))
	}
	if got := np.Annotations[karpv1.NodePoolHashVersionAnnotationKey]; got != karpv1.NodePoolHashVersion {
		errs = append(errs, fmt.Errorf("NodePool default: hash version %q, want %q", got, karpv1.NodePoolHashVersion))
	}
	nc := &v1alpha1.TestNodeClass{}
	wantStatus, wantReason := metav1.ConditionFalse, "NodeClassNotFound"
	if err := r.Get(ctx, client.ObjectKey{Name: "default"}, nc); client.IgnoreNotFound(err) != nil {
		return err
	} else if err == nil {
		switch ready := nc.StatusConditions().Get(status.ConditionReady); {
		case ready.IsTrue():
			wantStatus, wantReason = metav1.ConditionTrue, karpv1.ConditionTypeNodeClassReady
		case ready.IsFalse():
			wantReason = ready.Reason
		default:
			wantReason = "NodeClassReadinessUnknown"
		}
	}
	for _, want := range []struct {
		typ    string
		status metav1.ConditionStatus
		reason string
	}{
		{karpv1.ConditionTypeNodeClassReady, wantStatus, wantReason},
		{karpv1.ConditionTypeValidationSucceeded, metav1.ConditionTrue, karpv1.ConditionTypeValidationSucceeded},
	} {
		c := np.StatusConditions().Get(want.typ)
		switch {
		case c == nil:
			errs = append(errs, fmt.Errorf("NodePool default: no %s condition, want %s (%s)", want.typ, want.status, want.reason))
		case c.Status != want.status || c.Reason != want.reason || c.ObservedGeneration != np.Generation:
			errs = append(errs, fmt.Errorf("NodePool default: %s is %s (%s) of generation %d, want %s (%s) of generation %d",
				want.typ, c.Status, c.Reason, c.ObservedGeneration, want.status, want.reason, np.Generation))
		}
	}
	return errors.Join(errs...)
}

// hashOverwritten is the lost write the search reports: a lagging new
// leader's hash controller, its cache at the NodePool before the user's
// relabel, merge-patches the old template's hash over the new one
// (hash/controller.go:78, no resourceVersion in the patch).
func hashOverwritten(v *explore.Violation) bool {
	return v != nil && v.Broke(explore.InvariantLostWrite) && v.Cause != nil &&
		strings.Contains(v.Message, "blind merge patch at hash/controller.go:78") && strings.Contains(v.Message, "karpenter.sh/nodepool-hash written by")
}

// TestExploreKarpenter explores the scenario with the defaults, as a new
// user would (a Budget: the search deepens within it, then the fault
// phase). The only report expected is the overwritten hash, which the
// fault phase's random schedules may or may not meet in the budget; any
// other report fails it.
func TestExploreKarpenter(t *testing.T) {
	res, err := explore.Run(t.Context(), karpenterScenario(), explore.Options{Backend: explore.Server(start(t)), Budget: 8 * time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%d schedules (%d pruned) in %s, exhausted %v, at %s", res.Schedules, res.Pruned, res.Elapsed.Round(time.Second), res.Exhausted, res.Bounds)
	if v := res.Violation; v != nil {
		t.Logf("found after %d schedules in %s at %s:\n%s", v.Schedules, v.FoundAfter.Round(time.Second), v.Bounds, v)
	}
	logRanked(t, res)
	for i, v := range res.Violations {
		if !hashOverwritten(v) {
			t.Errorf("report %d: want only the overwritten hash, got:\n%v", i+1, v)
		}
	}
}

// hashSeed is the schedule TestExploreKarpenter's search met first
// (docs/explore-your-operator.md): the user relabels the NodePool and
// deletes the NodeClass; the hash controller writes the new hash (step
// 3); validation's status patch crashes its manager, and a standby whose
// NodePool informer is at v1, before the relabel, takes over; its hash
// controller patches the old template's hash (step 5). The drain's
// fresh reads put the new hash back, so the invariant holds at the end:
// only the lost write is reported, and, its lost value written again
// before the steady state, it ranks 4, below what persists (issue 82;
// 2 before).
const hashSeed = "!relabel !delete-nodeclass@0 nodepool.hash:default@0,0 nodepool.validation:default@0#1L nodepool.hash:default@3,0"

// TestKarpenterHashOverwrittenReplay replays it.
func TestKarpenterHashOverwrittenReplay(t *testing.T) {
	res, err := explore.Run(t.Context(), karpenterScenario(), explore.Options{Backend: explore.Server(start(t)), Replay: hashSeed, Versions: 8})
	if err != nil {
		t.Fatal(err)
	}
	if v := res.Violation; !hashOverwritten(v) || res.Diverged != "" {
		t.Fatalf("replay of %q: want the overwritten hash, diverged %q, got:\n%v", hashSeed, res.Diverged, v)
	}
	if v := res.Violation; v.Rank != 4 || !strings.Contains(v.RankReason, "the lost values were written again at step") {
		t.Errorf("replay of %q: want rank 4, the new hash written again; got rank %d (%s)", hashSeed, v.Rank, v.RankReason)
	}
	logRanked(t, res)
}

// logRanked logs every distinct violation the search kept, most severe
// first, as examples/realops' does; with STATUSPATCH_LINT set (make
// explore-operators sets it) a status write at fault that names no audit
// class fails the test: karpenter's writes are all in a dependency of
// this module (issue 82).
func logRanked(t *testing.T, res *explore.Result) {
	t.Helper()
	for i, v := range res.Violations {
		t.Logf("report %d: rank %d (%s): %s: %s (replay %q; found after %d schedules, %s)", i+1, v.Rank, v.RankReason, v.Invariant, v.Message, v.Seed,
			v.Schedules, v.FoundAfter.Round(time.Second))
		if os.Getenv("STATUSPATCH_LINT") != "" && v.Cause != nil && strings.HasSuffix(v.Cause.Kind, "of status") && v.Cause.Audit == "" {
			t.Errorf("report %d: the status write at fault (%s at %s) names no audit class", i+1, v.Cause.Kind, v.Cause.At)
		}
	}
}
