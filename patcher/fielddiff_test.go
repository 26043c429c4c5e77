package patcher_test

import (
	"context"
	"errors"
	"math"
	"reflect"
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/interceptor"

	"github.com/statuspatch/statuspatch/patcher"
)

// The generated field-by-field diff is tested end to end on generated code
// in the golden module (cmd/statuspatch-gen/generator/testdata/api/fielddiff/v1: a fuzz test
// against the reflection path, and the benchmarks). These tests cover the
// runtime's side with a diff written as statuspatch-gen writes it.

// diffDeployment is what statuspatch-gen generates for a Deployment status.
func diffDeployment(d *patcher.FieldDiff, base, cur *appsv1.Deployment) bool {
	b, c := &base.Status, &cur.Status
	if b.ObservedGeneration != c.ObservedGeneration {
		patcher.FieldChanged(d, "ObservedGeneration", `json:"observedGeneration,omitempty"`, &b.ObservedGeneration, &c.ObservedGeneration)
	}
	if b.Replicas != c.Replicas {
		patcher.FieldChanged(d, "Replicas", `json:"replicas,omitempty"`, &b.Replicas, &c.Replicas)
	}
	if b.ReadyReplicas != c.ReadyReplicas {
		patcher.FieldChanged(d, "ReadyReplicas", `json:"readyReplicas,omitempty"`, &b.ReadyReplicas, &c.ReadyReplicas)
	}
	patcher.CompareField(d, "Conditions", `json:"conditions,omitempty"`, &b.Conditions, &c.Conditions)
	patcher.CompareField(d, "CollisionCount", `json:"collisionCount,omitempty"`, &b.CollisionCount, &c.CollisionCount)
	return true
}

// t0 is a condition time. A zero metav1.Time marshals as null, which makes
// the generated path hand the write to the reflection path.
var t0 = metav1.Unix(1700000000, 0)

func withDiff() patcher.Option { return patcher.WithFieldDiff(diffDeployment) }

// statusBodies returns the status part of every status patch sent.
func statusBodies(log *requestLog) []any {
	var out []any
	for _, r := range log.reqs {
		if r.sub == "status" {
			out = append(out, r.body["status"])
		}
	}
	return out
}

// Both paths send the same patches for the same changes: a scalar set and
// cleared (omitempty: a null removes it), a nested list, a pointer.
func TestFieldDiffSendsWhatReflectionSends(t *testing.T) {
	changes := []func(*appsv1.Deployment){
		func(d *appsv1.Deployment) { d.Status.ReadyReplicas = 2 },
		func(d *appsv1.Deployment) { d.Status.Replicas = 0 },
		func(d *appsv1.Deployment) {
			d.Status.Conditions = []appsv1.DeploymentCondition{{Type: "Available", Status: "True", Reason: "Up", LastUpdateTime: t0, LastTransitionTime: t0}}
		},
		func(d *appsv1.Deployment) { d.Status.Conditions[0].Message = "m" },
		func(d *appsv1.Deployment) { n := int32(4); d.Status.CollisionCount = &n },
		func(d *appsv1.Deployment) {},
	}
	calls := 0
	counted := patcher.WithFieldDiff(func(d *patcher.FieldDiff, base, cur *appsv1.Deployment) bool {
		calls++
		return diffDeployment(d, base, cur)
	})
	var sent [2][]any
	for i, opts := range [][]patcher.Option{nil, {counted}} {
		c, _, log := newClient(t)
		d := fetch(t, c)
		for _, change := range changes {
			p := patcher.New(c, d, opts...)
			change(d)
			if err := p.Flush(ctx); err != nil {
				t.Fatal(err)
			}
		}
		sent[i] = statusBodies(log)
	}
	if len(sent[0]) != 5 || !reflect.DeepEqual(sent[0], sent[1]) {
		t.Fatalf("reflection path sent %v\ngenerated diff sent  %v", sent[0], sent[1])
	}
	if calls < len(changes) {
		t.Fatalf("the generated diff ran %d times for %d Flushes", calls, len(changes))
	}
}

// A diff that declines (it returns false, as generated code does for a nil
// status pointer) leaves the write to the reflection path.
func TestFieldDiffThatDeclinesFallsBack(t *testing.T) {
	c, _, log := newClient(t)
	p := patcher.New(c, fetch(t, c), patcher.WithFieldDiff(func(*patcher.FieldDiff, *appsv1.Deployment, *appsv1.Deployment) bool { return false }))
	p.Object().Status.ReadyReplicas = 5
	if err := p.Flush(ctx); err != nil {
		t.Fatal(err)
	}
	if got := statusBodies(log); len(got) != 1 || !reflect.DeepEqual(got[0], map[string]any{"readyReplicas": float64(5)}) {
		t.Fatalf("sent %v", got)
	}
}

// A diff made for another kind is refused when the patcher is made.
func TestFieldDiffOfAnotherTypeIsInvalidInput(t *testing.T) {
	c, _, _ := newClient(t)
	other := patcher.WithFieldDiff(func(*patcher.FieldDiff, *appsv1.StatefulSet, *appsv1.StatefulSet) bool { return true })
	p := patcher.New(c, fetch(t, c), other)
	if err := p.Flush(ctx); !errors.Is(err, patcher.ErrInvalidInput) {
		t.Fatalf("Flush = %v, want ErrInvalidInput", err)
	}
}

// On the generated path the no-op check, the condition-free guards, Retry's
// pending-changes check and divergence detection work as on the reflection
// path.
func TestFieldDiffKeepsTheGuards(t *testing.T) {
	c, _, log := newClient(t)
	p := patcher.New(c, fetch(t, c), withDiff())
	p.Object().Status.Replicas = 1 // the value it has: no change
	if p.HasChanges() {
		t.Fatal("HasChanges for a field set to its own value")
	}
	if err := p.Flush(ctx); err != nil || len(log.reqs) != 0 {
		t.Fatalf("no-op Flush: err %v, %d requests", err, len(log.reqs))
	}
	p.Object().Status.ReadyReplicas = 3
	err := p.Retry(ctx, func(*appsv1.Deployment) error { return nil })
	if !errors.Is(err, patcher.ErrPendingChanges) {
		t.Fatalf("Retry after an unflushed change = %v, want ErrPendingChanges", err)
	}
	var pending *patcher.PendingChangesError
	if !errors.As(err, &pending) || len(pending.Fields) != 1 || pending.Fields[0] != "status.readyReplicas" {
		t.Fatalf("pending fields = %+v, want [status.readyReplicas]", pending)
	}
}

// The server stores something else than was sent: the generated path
// marshals the sent status only then, and reports the divergence.
func TestFieldDiffReportsDivergence(t *testing.T) {
	c, _, _ := newClient(t)
	rewriting := interceptor.NewClient(c, interceptor.Funcs{
		SubResourcePatch: func(ctx context.Context, c client.Client, sub string, obj client.Object, p client.Patch, opts ...client.SubResourcePatchOption) error {
			if err := c.SubResource(sub).Patch(ctx, obj, p, opts...); err != nil {
				return err
			}
			obj.(*appsv1.Deployment).Status.ReadyReplicas = 0 // pruned by the server's schema, say
			return nil
		},
	})
	p := patcher.New(rewriting, fetch(t, c), withDiff(), patcher.WithDivergenceError(), patcher.WithMetrics(nil))
	p.Object().Status.ReadyReplicas = 7
	p.Object().Status.Conditions = []appsv1.DeploymentCondition{{Type: "Available", Status: "True", LastUpdateTime: t0, LastTransitionTime: t0}}
	err := p.Flush(ctx)
	var diverged *patcher.StatusDivergedError
	if !errors.As(err, &diverged) || len(diverged.Paths) != 1 || diverged.Paths[0].Path != "status.readyReplicas" {
		t.Fatalf("Flush = %v, want a divergence at status.readyReplicas", err)
	}
}

// conditionsOnly is a diff that compares only the conditions, so a test can
// tell which path wrote: the generated one sends nothing else.
func conditionsOnly(d *patcher.FieldDiff, base, cur *appsv1.Deployment) bool {
	patcher.CompareField(d, "Conditions", `json:"conditions,omitempty"`, &base.Status.Conditions, &cur.Status.Conditions)
	return true
}

// The generated diff decides what is sent: Flush marshals nothing else.
// When a changed field's JSON holds a null (a zero metav1.Time here), the
// reflection path decides instead: a null in a merge patch deletes, so it
// sends a JSON Patch.
func TestFieldDiffDecidesUnlessNull(t *testing.T) {
	for _, tc := range []struct {
		name string
		when metav1.Time
		want map[string]any
	}{
		{"set times: the generated diff", t0, map[string]any{"conditions": []any{map[string]any{
			"type": "Available", "status": "True", "lastUpdateTime": "2023-11-14T22:13:20Z", "lastTransitionTime": "2023-11-14T22:13:20Z"}}}},
		{"zero times (null): the reflection path", metav1.Time{}, map[string]any{"readyReplicas": float64(9), "conditions": []any{map[string]any{
			"type": "Available", "status": "True", "lastUpdateTime": nil, "lastTransitionTime": nil}}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c, _, log := newClient(t)
			p := patcher.New(c, fetch(t, c), patcher.WithFieldDiff(conditionsOnly))
			p.Object().Status.ReadyReplicas = 9
			p.Object().Status.Conditions = []appsv1.DeploymentCondition{{Type: "Available", Status: "True", LastUpdateTime: tc.when, LastTransitionTime: tc.when}}
			if err := p.Flush(ctx); err != nil {
				t.Fatal(err)
			}
			if got := statusBodies(log); len(got) != 1 || !reflect.DeepEqual(got[0], tc.want) {
				t.Fatalf("sent %v, want %v", got, tc.want)
			}
		})
	}
}

// DeepEqual is reflect.DeepEqual, with a fast path for strings, numbers
// and bools that must not change its answers.
func TestDeepEqualIsReflectDeepEqual(t *testing.T) {
	nan := math.NaN()
	one, other := int32(1), int32(1)
	check := func(name string, equal bool, want bool) {
		t.Helper()
		if equal != want {
			t.Errorf("%s: DeepEqual %v, reflect.DeepEqual %v", name, equal, want)
		}
	}
	for _, p := range [][2]string{{"a", "a"}, {"a", "b"}, {"", ""}} {
		check("string "+p[0]+p[1], patcher.DeepEqual(&p[0], &p[1]), reflect.DeepEqual(p[0], p[1]))
	}
	for _, p := range [][2]metav1.ConditionStatus{{"True", "True"}, {"True", "False"}} {
		check("named string", patcher.DeepEqual(&p[0], &p[1]), reflect.DeepEqual(p[0], p[1]))
	}
	for _, p := range [][2]float64{{1, 1}, {0, math.Copysign(0, -1)}, {nan, nan}, {1, 2}} {
		check("float", patcher.DeepEqual(&p[0], &p[1]), reflect.DeepEqual(p[0], p[1]))
	}
	for _, p := range [][2]bool{{true, true}, {true, false}} {
		check("bool", patcher.DeepEqual(&p[0], &p[1]), reflect.DeepEqual(p[0], p[1]))
	}
	for _, p := range [][2]*int32{{&one, &other}, {&one, nil}, {nil, nil}} {
		check("pointer", patcher.DeepEqual(&p[0], &p[1]), reflect.DeepEqual(p[0], p[1]))
	}
	for _, p := range [][2][]string{{nil, {}}, {{"a"}, {"a"}}, {{"a"}, {"b"}}} {
		check("slice", patcher.DeepEqual(&p[0], &p[1]), reflect.DeepEqual(p[0], p[1]))
	}
	for _, p := range [][2]any{{1, 1}, {1, int64(1)}, {[]int{1}, []int{1}}} {
		check("interface", patcher.DeepEqual(&p[0], &p[1]), reflect.DeepEqual(p[0], p[1]))
	}
	// Nil pointers themselves: compared as reflect.DeepEqual compares the
	// pointers, without a panic.
	s := "a"
	for _, p := range [][2]*string{{nil, nil}, {nil, &s}, {&s, nil}} {
		check("nil pointer", patcher.DeepEqual(p[0], p[1]), reflect.DeepEqual(p[0], p[1]))
	}
}
