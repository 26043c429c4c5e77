package explore_test

import (
	"context"
	"encoding/json"
	"slices"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"

	"github.com/statuspatch/statuspatch/testenv/explore"
)

// nillableDuration is karpenter's NillableDuration (sigs.k8s.io/karpenter
// pkg/apis/v1): its MarshalJSON gives the bytes it was read from, and its
// ToUnstructured gives them too, as []byte, which is no JSON value.
type nillableDuration struct {
	*time.Duration
	Raw []byte
}

func (d *nillableDuration) UnmarshalJSON(b []byte) error {
	var s string
	if err := json.Unmarshal(b, &s); err != nil {
		return err
	}
	if s == "Never" {
		return nil
	}
	pd, err := time.ParseDuration(s)
	if err != nil {
		return err
	}
	d.Raw, d.Duration = slices.Clone(b), &pd
	return nil
}

func (d nillableDuration) MarshalJSON() ([]byte, error) {
	if d.Raw != nil {
		return d.Raw, nil
	}
	if d.Duration != nil {
		return json.Marshal(d.String())
	}
	return json.Marshal("Never")
}

func (d nillableDuration) ToUnstructured() any {
	if d.Raw != nil {
		return d.Raw
	}
	if d.Duration != nil {
		return d.String()
	}
	return "Never"
}

// timer is a kind with a nillableDuration, as karpenter's NodePool's
// disruption.consolidateAfter.
type timer struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	Spec              struct {
		After nillableDuration `json:"after"`
		Seen  int64            `json:"seen,omitempty"`
	} `json:"spec"`
}

func (t *timer) DeepCopyObject() runtime.Object {
	c := *t
	t.DeepCopyInto(&c.ObjectMeta)
	if t.Spec.After.Duration != nil {
		d := *t.Spec.After.Duration
		c.Spec.After.Duration = &d
	}
	c.Spec.After.Raw = slices.Clone(t.Spec.After.Raw)
	return &c
}

type timerList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []timer `json:"items"`
}

func (l *timerList) DeepCopyObject() runtime.Object {
	c := &timerList{TypeMeta: l.TypeMeta}
	l.DeepCopyInto(&c.ListMeta)
	for i := range l.Items {
		c.Items = append(c.Items, *l.Items[i].DeepCopyObject().(*timer))
	}
	return c
}

// timerReconciler counts its reconciles in spec.seen, up to 2: each
// update's answer holds the nillableDuration.
type timerReconciler struct{ c client.Client }

func (r *timerReconciler) Reconcile(ctx context.Context, req reconcile.Request) (reconcile.Result, error) {
	t := &timer{}
	if err := r.c.Get(ctx, req.NamespacedName, t); err != nil {
		return reconcile.Result{}, client.IgnoreNotFound(err)
	}
	if t.Spec.Seen >= 2 {
		return reconcile.Result{}, nil
	}
	t.Spec.Seen++
	return reconcile.Result{}, r.c.Update(ctx, t)
}

// A write's answer enters the book as its wire form (intercept.AnswerContent): a kind
// whose field's ToUnstructured gives bytes, as karpenter's NodePool,
// is explored, and every update is recorded as a version (it panicked
// "cannot deep copy []uint8" in runtime.DefaultUnstructuredConverter's
// form).
func TestWriteAnswerIsItsWireForm(t *testing.T) {
	gv := schema.GroupVersion{Group: "test.statuspatch.io", Version: "v1"}
	s := runtime.NewScheme()
	s.AddKnownTypeWithName(gv.WithKind("Timer"), &timer{})
	s.AddKnownTypeWithName(gv.WithKind("TimerList"), &timerList{})
	metav1.AddToGroupVersion(s, gv)
	seed := &timer{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "t"}}
	seed.Spec.After = nillableDuration{Raw: []byte(`"5m"`)}
	sc := explore.Scenario{
		Reconcilers: []explore.Reconciler{{Name: "timer", For: &timer{},
			New: func(c client.Client, _ client.Reader) reconcile.Reconciler { return &timerReconciler{c: c} }}},
		Objects: []client.Object{seed},
		Invariant: func(ctx context.Context, r client.Reader) error {
			return r.Get(ctx, client.ObjectKey{Namespace: "ns", Name: "t"}, &timer{})
		},
	}
	res, err := explore.Run(t.Context(), sc, explore.Options{Backend: explore.Fake(s), Depth: 3, Budget: searchBound, Quiet: true})
	if err != nil {
		t.Fatal(err)
	}
	if res.Violation != nil || res.Schedules == 0 {
		t.Fatalf("want the updates explored, no violation; got %d schedules, violation:\n%v", res.Schedules, res.Violation)
	}
}
