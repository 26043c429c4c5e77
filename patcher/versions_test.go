package patcher

import (
	"context"
	"errors"
	"fmt"
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/fake"
)

func book() *versionBook { return &versionBook{cur: map[versionKey]*versionEntry{}} }

func deploymentNamed(name string) client.Object {
	return &appsv1.Deployment{ObjectMeta: metav1.ObjectMeta{Namespace: "default", Name: name}}
}

// The book holds at most two generations of versionBookSize objects, and an
// object found in the old generation keeps what was recorded for it.
func TestVersionBookIsBounded(t *testing.T) {
	b := book()
	c := fake.NewClientBuilder().Build()
	first, _ := b.entry(c, deploymentNamed("first"))
	first.observe("42")
	for i := range 3 * versionBookSize {
		b.entry(c, deploymentNamed(fmt.Sprint("o", i)))
		if n := len(b.cur) + len(b.old); n > 2*versionBookSize {
			t.Fatalf("%d objects held after %d entries, bound %d", n, i+1, 2*versionBookSize)
		}
	}
	b = book()
	first, _ = b.entry(c, deploymentNamed("first"))
	first.observe("42")
	for i := range versionBookSize {
		b.entry(c, deploymentNamed(fmt.Sprint("o", i))) // "first" moves to the old generation
	}
	again, _ := b.entry(c, deploymentNamed("first"))
	if again != first {
		t.Fatal("an object in the old generation got a new entry")
	}
	if v, newer := again.newerThan("41"); !newer || v != "42" {
		t.Fatalf("newerThan(41) = %q, %v after a generation turned over, want 42, true", v, newer)
	}
}

// Entries are per client (one per manager) and per Go type.
func TestVersionBookKeys(t *testing.T) {
	b := book()
	c1, c2 := fake.NewClientBuilder().Build(), fake.NewClientBuilder().Build()
	e1, _ := b.entry(c1, deploymentNamed("x"))
	e2, _ := b.entry(c2, deploymentNamed("x"))
	e3, _ := b.entry(c1, &appsv1.StatefulSet{ObjectMeta: metav1.ObjectMeta{Namespace: "default", Name: "x"}})
	if e1 == e2 || e1 == e3 {
		t.Fatal("two clients, or two types, share an entry")
	}
	if e, ok := b.entry(nonComparable{}, deploymentNamed("x")); ok || e != nil {
		t.Fatal("a client that cannot key a map got an entry")
	}
}

type nonComparable struct {
	client.Client
	_ []int
}

func TestVersionEntryObserve(t *testing.T) {
	e := &versionEntry{slot: make(chan struct{}, 1)}
	for _, step := range []struct {
		observe, base string
		newer         bool
	}{
		{"5", "4", true},
		{"3", "4", true}, // an older observation does not lower the mark
		{"", "5", false},
		{"5", "5", false},
		{"9", "", false}, // no base: nothing to compare
		{"not-a-number", "4", false},
	} {
		e.observe(step.observe)
		if _, newer := e.newerThan(step.base); newer != step.newer {
			t.Fatalf("after observe(%q): newerThan(%q) = %v, want %v", step.observe, step.base, newer, step.newer)
		}
	}
}

func TestVersionEntryAcquireHonoursTheContext(t *testing.T) {
	e := &versionEntry{slot: make(chan struct{}, 1)}
	release, err := e.acquire(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancelCause(context.Background())
	cause := errors.New("reconcile abandoned")
	cancel(cause)
	if _, err := e.acquire(ctx); !errors.Is(err, context.Canceled) || !errors.Is(err, cause) {
		t.Fatalf("acquire on a held slot with a done context = %v, want the context's error and cause", err)
	}
	release()
	if release, err := e.acquire(context.Background()); err != nil {
		t.Fatal(err)
	} else {
		release()
	}
}
