package patcherit_test

import (
	"errors"
	"testing"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	v1 "github.com/statuspatch/statuspatch/internal/testapi/v1"
	"github.com/statuspatch/statuspatch/patcher"
)

// ownClient is a client of its own: a second controller (another manager).
func ownClient(t *testing.T) client.Client {
	t.Helper()
	e := env(t)
	c, err := client.New(e.Config, client.Options{Scheme: e.Scheme, Mapper: e.Mapper})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func cond(typ, reason string) metav1.Condition {
	return metav1.Condition{Type: typ, Status: metav1.ConditionTrue, Reason: reason, LastTransitionTime: metav1.Now()}
}

// Two controllers own one condition each of one object. Both read the same
// version; the first writes its condition; the second's write conflicts.
// With WithOwnedConditions the second's Flush re-applies its own condition
// onto a fresh read and writes again: both conditions, and the first
// controller's phase, are on the server. Without it, the second gets the
// Conflict (and Retry would be needed).
func TestOwnedConditionsResolveACoWritersConflict(t *testing.T) {
	for _, owned := range []bool{true, false} {
		t.Run(map[bool]string{true: "owned", false: "plain"}[owned], func(t *testing.T) {
			e := env(t)
			key := newWidget(t, e.Client)
			var opts []patcher.Option
			if owned {
				opts = append(opts, patcher.WithOwnedConditions("Scheduled"), patcher.WithAPIReader(e.Client))
			}
			first, err := patcher.Fetch(ctx, ownClient(t), key, &v1.Widget{})
			if err != nil {
				t.Fatal(err)
			}
			second, err := patcher.Fetch(ctx, ownClient(t), key, &v1.Widget{}, opts...)
			if err != nil {
				t.Fatal(err)
			}
			meta.SetStatusCondition(&first.Object().Status.Conditions, cond("Ready", "Up"))
			first.Object().Status.Phase = "Running"
			if err := first.Flush(ctx); err != nil {
				t.Fatal(err)
			}
			meta.SetStatusCondition(&second.Object().Status.Conditions, cond("Scheduled", "Placed"))
			err = second.Flush(ctx)
			got := get(t, e.Client, key)
			if !owned {
				if !apierrors.IsConflict(err) || meta.FindStatusCondition(got.Status.Conditions, "Scheduled") != nil {
					t.Fatalf("without owned conditions: Flush = %v, server conditions %v; want a Conflict and nothing written", err, got.Status.Conditions)
				}
				return
			}
			if err != nil {
				t.Fatalf("Flush with owned conditions: %v", err)
			}
			if meta.FindStatusCondition(got.Status.Conditions, "Ready") == nil || meta.FindStatusCondition(got.Status.Conditions, "Scheduled") == nil || got.Status.Phase != "Running" {
				t.Fatalf("server status %+v: want both conditions and the first writer's phase", got.Status)
			}
			if second.Object().ResourceVersion != got.ResourceVersion {
				t.Fatalf("the patcher's object is at %s, the server at %s", second.Object().ResourceVersion, got.ResourceVersion)
			}
		})
	}
}

// A change outside the owned conditions (here, the phase), or to another
// writer's condition, is not re-applied: the Conflict is returned and
// nothing is written. Removing an owned condition is re-applied.
func TestOwnedConditionsOnlyReapplyOwnedChanges(t *testing.T) {
	e := env(t)
	key := newWidget(t, e.Client)
	setup, err := patcher.Fetch(ctx, ownClient(t), key, &v1.Widget{})
	if err != nil {
		t.Fatal(err)
	}
	meta.SetStatusCondition(&setup.Object().Status.Conditions, cond("Scheduled", "Placed"))
	if err := setup.Flush(ctx); err != nil {
		t.Fatal(err)
	}
	mk := func() *patcher.Patcher[*v1.Widget] {
		p, err := patcher.Fetch(ctx, ownClient(t), key, &v1.Widget{}, patcher.WithOwnedConditions("Scheduled"), patcher.WithAPIReader(e.Client))
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	moveServer := func(reason string) {
		p, err := patcher.Fetch(ctx, ownClient(t), key, &v1.Widget{})
		if err != nil {
			t.Fatal(err)
		}
		meta.SetStatusCondition(&p.Object().Status.Conditions, cond("Ready", reason))
		if err := p.Flush(ctx); err != nil {
			t.Fatal(err)
		}
	}

	phase := mk()
	moveServer("One")
	phase.Object().Status.Phase = "Mine"
	meta.SetStatusCondition(&phase.Object().Status.Conditions, cond("Scheduled", "Moved"))
	if err := phase.Flush(ctx); !apierrors.IsConflict(err) {
		t.Fatalf("owned condition plus phase: Flush = %v, want the Conflict", err)
	}
	foreign := mk()
	moveServer("Two")
	meta.SetStatusCondition(&foreign.Object().Status.Conditions, cond("Ready", "Mine"))
	if err := foreign.Flush(ctx); !apierrors.IsConflict(err) {
		t.Fatalf("another writer's condition: Flush = %v, want the Conflict", err)
	}
	if got := get(t, e.Client, key); got.Status.Phase != "" || meta.FindStatusCondition(got.Status.Conditions, "Ready").Reason != "Two" {
		t.Fatalf("server status %+v: a refused change was written", got.Status)
	}

	remove := mk()
	moveServer("Three")
	meta.RemoveStatusCondition(&remove.Object().Status.Conditions, "Scheduled")
	if err := remove.Flush(ctx); err != nil {
		t.Fatal(err)
	}
	got := get(t, e.Client, key)
	if meta.FindStatusCondition(got.Status.Conditions, "Scheduled") != nil || meta.FindStatusCondition(got.Status.Conditions, "Ready").Reason != "Three" {
		t.Fatalf("server conditions %v: want Scheduled removed and Ready kept", got.Status.Conditions)
	}
}

func TestOwnedConditionsNeedAConditionsField(t *testing.T) {
	e := env(t)
	g := newGizmo(t, e.Client) // GizmoStatus has no conditions
	p := patcher.New(e.Client, g, patcher.WithOwnedConditions("Ready"))
	if err := p.Err(); !errors.Is(err, patcher.ErrInvalidInput) {
		t.Fatalf("Err() = %v, want ErrInvalidInput", err)
	}
	key := newWidget(t, e.Client)
	w := get(t, e.Client, key)
	if err := patcher.New(e.Client, w, patcher.WithOwnedConditions("")).Err(); !errors.Is(err, patcher.ErrInvalidInput) {
		t.Fatalf("an empty type: Err() = %v, want ErrInvalidInput", err)
	}
}
