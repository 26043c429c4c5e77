package patcherit_test

import (
	"errors"
	"strings"
	"testing"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	v1 "github.com/statuspatch/statuspatch/internal/testapi/v1"
	"github.com/statuspatch/statuspatch/patcher"
)

// Issue 23, items 5 and 6: the condition guard refuses exactly what the
// server refuses, judges only the conditions the caller changed, and finds
// them at any depth, list items included.

// Item 5: the guard refuses exactly what the server refuses for the CRD
// controller-gen writes for metav1.Condition: for each condition, Flush
// succeeds when the server stores the same status written by hand, and
// when the server refuses it returns ErrInvalidCondition naming the
// condition beside the server's 422, nothing stored (the server decides:
// TestGuardLetsTheServerDecide).
func TestConditionGuardIsExactlyAsStrictAsTheServer(t *testing.T) {
	e := env(t)
	valid := metav1.Condition{Type: "Ready", Status: metav1.ConditionTrue, Reason: "Done", LastTransitionTime: metav1.Now()}
	for _, tc := range []struct {
		name   string
		mutate func(*metav1.Condition)
		stored bool // what the server does with it
	}{
		{"type of 70 characters", func(c *metav1.Condition) { c.Type = "A" + strings.Repeat("b", 68) + "C" }, true},
		{"type of 316 characters", func(c *metav1.Condition) { c.Type = strings.Repeat("T", 316) }, true},
		{"type of 317 characters", func(c *metav1.Condition) { c.Type = strings.Repeat("T", 317) }, false},
		{"type with a prefix", func(c *metav1.Condition) { c.Type = "example.com/Ready" }, true},
		{"type with an upper-case prefix", func(c *metav1.Condition) { c.Type = "Example.com/Ready" }, false},
		{"type with two slashes", func(c *metav1.Condition) { c.Type = "a/b/c" }, false},
		{"type ending in a dot", func(c *metav1.Condition) { c.Type = "Ready." }, false},
		{"empty type", func(c *metav1.Condition) { c.Type = "" }, false},
		{"reason of 1024 characters", func(c *metav1.Condition) { c.Reason = strings.Repeat("R", 1024) }, true},
		{"reason of 1025 characters", func(c *metav1.Condition) { c.Reason = strings.Repeat("R", 1025) }, false},
		{"reason with a comma and a colon", func(c *metav1.Condition) { c.Reason = "Done,Now:Really_" }, true},
		{"reason ending in a colon", func(c *metav1.Condition) { c.Reason = "Done:" }, false},
		{"reason with a space", func(c *metav1.Condition) { c.Reason = "has spaces" }, false},
		{"empty reason", func(c *metav1.Condition) { c.Reason = "" }, false},
		{"message of 20000 é (40000 bytes)", func(c *metav1.Condition) { c.Message = strings.Repeat("é", 20000) }, true},
		{"message of 32768 é", func(c *metav1.Condition) { c.Message = strings.Repeat("é", 32768) }, true},
		{"message of 32769 é", func(c *metav1.Condition) { c.Message = strings.Repeat("é", 32769) }, false},
		{"message of 32769 bytes", func(c *metav1.Condition) { c.Message = strings.Repeat("m", 32769) }, false},
		{"empty message", func(c *metav1.Condition) { c.Message = "" }, true},
		{"status Maybe", func(c *metav1.Condition) { c.Status = "Maybe" }, false},
		{"empty status", func(c *metav1.Condition) { c.Status = "" }, false},
		{"observedGeneration 0", func(c *metav1.Condition) { c.ObservedGeneration = 0 }, true},
		{"negative observedGeneration", func(c *metav1.Condition) { c.ObservedGeneration = -1 }, false},
		{"no lastTransitionTime", func(c *metav1.Condition) { c.LastTransitionTime = metav1.Time{} }, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			other := valid
			other.Type = "Other"
			tc.mutate(&other)
			status := v1.WidgetStatus{Phase: "Running", Conditions: []metav1.Condition{valid, other}}

			// The server's verdict on the status written by hand.
			w := get(t, e.Client, newWidget(t, e.Client))
			w.Status = status
			err := e.Client.Status().Update(ctx, w)
			if stored := err == nil; stored != tc.stored || (!stored && !apierrors.IsInvalid(err)) {
				t.Fatalf("the server's verdict changed: Status().Update = %v, want stored %v", err, tc.stored)
			}

			c, rec := countingClient(t, e)
			p, err := patcher.Fetch(ctx, c, newWidget(t, e.Client), &v1.Widget{})
			if err != nil {
				t.Fatal(err)
			}
			p.Object().Status = *status.DeepCopy()
			sent := len(rec.requests())
			err = p.Flush(ctx)
			if tc.stored {
				if err != nil {
					t.Fatalf("Flush = %v; the server stores this condition", err)
				}
				return
			}
			if !errors.Is(err, patcher.ErrInvalidCondition) || !apierrors.IsInvalid(err) || !strings.Contains(err.Error(), "status.conditions[1].") {
				t.Fatalf("Flush = %v, want ErrInvalidCondition and the server's 422, naming status.conditions[1]", err)
			}
			if n := len(rec.requests()) - sent; n == 0 {
				t.Fatal("nothing sent: the server did not decide")
			}
		})
	}
}

// Item 5: a condition another controller stored, which the server took,
// never blocks this controller's writes to the list.
func TestAnotherControllersConditionDoesNotBlockWrites(t *testing.T) {
	e := env(t)
	key := newWidget(t, e.Client)
	w := get(t, e.Client, key)
	theirs := metav1.Condition{Type: "Synced" + strings.Repeat("x", 64), Status: metav1.ConditionFalse, Reason: "Failed",
		Message: strings.Repeat("é", 20000), LastTransitionTime: metav1.Now()}
	w.Status.Conditions = []metav1.Condition{theirs}
	if err := e.Client.Status().Update(ctx, w); err != nil {
		t.Fatalf("the other controller's write: %v", err)
	}

	p, err := patcher.Fetch(ctx, e.Client, key, &v1.Widget{})
	if err != nil {
		t.Fatal(err)
	}
	p.Object().Status.Phase = "Running"
	patcher.SetCondition(p.Object(), &p.Object().Status.Conditions, metav1.Condition{Type: "Ready", Status: metav1.ConditionTrue, Reason: "Done"})
	if err := p.Flush(ctx); err != nil {
		t.Fatalf("Flush = %v, want the write stored beside the other controller's condition", err)
	}
	got := get(t, e.Client, key)
	if got.Status.Phase != "Running" || len(got.Status.Conditions) != 2 || got.Status.Conditions[0].Message != theirs.Message {
		t.Fatalf("stored phase %q and %d conditions", got.Status.Phase, len(got.Status.Conditions))
	}
}

// Item 6: conditions inside list items (status.members[].conditions) are
// checked too: the server would refuse the whole write, phase included.
func TestConditionGuardChecksConditionsInListItems(t *testing.T) {
	e := env(t)
	ready := metav1.Condition{Type: "Ready", Status: metav1.ConditionTrue, Reason: "Done", LastTransitionTime: metav1.NewTime(time.Now())}
	c, rec := countingClient(t, e)
	key := newWidget(t, e.Client)
	p, err := patcher.Fetch(ctx, c, key, &v1.Widget{})
	if err != nil {
		t.Fatal(err)
	}
	bad := ready
	bad.Reason = "not valid"
	p.Object().Status.Phase = "Running"
	p.Object().Status.Members = []v1.WidgetMember{
		{Name: "a", Conditions: []metav1.Condition{ready}},
		{Name: "b", Conditions: []metav1.Condition{ready, func() metav1.Condition { c := bad; c.Type = "Synced"; return c }()}},
	}
	sent := len(rec.requests())
	err = p.Flush(ctx)
	if !errors.Is(err, patcher.ErrInvalidCondition) || !apierrors.IsInvalid(err) || !strings.Contains(err.Error(), "status.members[1].conditions[1].reason") ||
		!strings.Contains(err.Error(), `"Synced"`) {
		t.Fatalf("Flush = %v, want ErrInvalidCondition and the server's 422, naming status.members[1].conditions[1].reason and the type", err)
	}
	if n := len(rec.requests()) - sent; n == 0 {
		t.Fatal("nothing sent: the server did not decide")
	}
	if w := get(t, e.Client, key); w.Status.Phase == "Running" {
		t.Fatal("the refused write's phase was stored")
	}

	// Valid, it is written; and a member's condition stored earlier is not
	// judged again when another member changes.
	p.Object().Status.Members[1].Conditions[1].Reason = "Synced"
	if err := p.Flush(ctx); err != nil {
		t.Fatal(err)
	}
	p.Object().Status.Members = append(p.Object().Status.Members, v1.WidgetMember{Name: "c"})
	if err := p.Flush(ctx); err != nil {
		t.Fatal(err)
	}
	if got := get(t, e.Client, key); got.Status.Phase != "Running" || len(got.Status.Members) != 3 {
		t.Fatalf("stored phase %q, %d members", got.Status.Phase, len(got.Status.Members))
	}
}
