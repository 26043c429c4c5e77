package patcher_test

import (
	"context"
	"errors"
	"reflect"
	"strings"
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/statuspatch/statuspatch/patcher"
)

var ctx = context.Background()

func TestFlushWithoutChangeSendsNothing(t *testing.T) {
	c, _, log := newClient(t)
	p := patcher.New(c, fetch(t, c))
	if p.HasChanges() {
		t.Fatal("HasChanges on a fresh patcher")
	}
	// Setting a field to the value it already has is no change either.
	p.Object().Status.Replicas = 1
	if err := p.Flush(ctx); err != nil {
		t.Fatal(err)
	}
	if n := len(log.reqs); n != 0 {
		t.Fatalf("no-op Flush sent %d requests", n)
	}
}

func TestFlushSendsResourceVersionAndStatusDiffOnly(t *testing.T) {
	c, _, log := newClient(t)
	d := fetch(t, c)
	rv := d.ResourceVersion
	p := patcher.New(c, d)
	p.Object().Status.ReadyReplicas = 2
	if !p.HasChanges() {
		t.Fatal("HasChanges is false after a status change")
	}
	if err := p.Flush(ctx); err != nil {
		t.Fatal(err)
	}
	if n := log.count("patch", "status"); n != 1 {
		t.Fatalf("Flush sent %d status patches, want 1", n)
	}
	want := map[string]any{
		"metadata": map[string]any{"resourceVersion": rv},
		"status":   map[string]any{"readyReplicas": float64(2)},
	}
	if got := log.last().body; !reflect.DeepEqual(got, want) {
		t.Fatalf("patch body = %v, want %v", got, want)
	}
	if p.Object().ResourceVersion == rv {
		t.Fatal("object does not carry the server's new resourceVersion")
	}
	if p.HasChanges() {
		t.Fatal("HasChanges after a successful Flush: the base did not move")
	}
	// The base moved: a second change flushes without a conflict.
	p.Object().Status.ReadyReplicas = 3
	if err := p.Flush(ctx); err != nil {
		t.Fatalf("second Flush: %v", err)
	}
	if got := fetch(t, c).Status.ReadyReplicas; got != 3 {
		t.Fatalf("server readyReplicas = %d, want 3", got)
	}
}

func TestFlushStaleBaseConflictsAndKeepsStatus(t *testing.T) {
	c, other, _ := newClient(t)
	p := patcher.New(c, fetch(t, c))
	concurrentStatusWrite(t, other, func(d *appsv1.Deployment) { d.Status.AvailableReplicas = 9 })

	p.Object().Status.ReadyReplicas = 2
	err := p.Flush(ctx)
	// The fake client publishes no schema for the built-in kind: the other
	// writer's availableReplicas could be a default, our readyReplicas
	// pruned, as far as the evidence goes (patcher/internal/settle): a
	// Conflict or ErrWriteOutcomeUnknown, never nil.
	if !apierrors.IsConflict(err) && !errors.Is(err, patcher.ErrWriteOutcomeUnknown) {
		t.Fatalf("Flush from a stale base = %v, want a Conflict or ErrWriteOutcomeUnknown", err)
	}
	if got := p.Object().Status.ReadyReplicas; got != 2 {
		t.Fatalf("in-memory status lost on conflict: readyReplicas = %d", got)
	}
	if got := fetch(t, other).Status; got.AvailableReplicas != 9 || got.ReadyReplicas != 0 {
		t.Fatalf("server status = %+v: the concurrent write was overwritten", got)
	}
}

func TestFlushRefusesUnpersistedNonStatusChanges(t *testing.T) {
	for name, tc := range map[string]struct {
		mutate func(*appsv1.Deployment)
		field  string
	}{
		"spec":        {func(d *appsv1.Deployment) { d.Spec.Paused = false }, "spec"},
		"labels":      {func(d *appsv1.Deployment) { d.Labels = map[string]string{"a": "b"} }, "metadata.labels"},
		"annotations": {func(d *appsv1.Deployment) { d.Annotations = map[string]string{"a": "b"} }, "metadata.annotations"},
		"finalizers":  {func(d *appsv1.Deployment) { d.Finalizers = append(d.Finalizers, "x/y") }, "metadata.finalizers"},
	} {
		t.Run(name, func(t *testing.T) {
			c, _, log := newClient(t)
			p := patcher.New(c, fetch(t, c))
			p.Object().Status.ReadyReplicas = 2
			tc.mutate(p.Object())
			err := p.Flush(ctx)
			if !errors.Is(err, patcher.ErrNonStatusChange) {
				t.Fatalf("Flush = %v, want ErrNonStatusChange", err)
			}
			if !strings.Contains(err.Error(), tc.field) || !strings.Contains(err.Error(), "default/web") {
				t.Fatalf("error %q does not name %s and the object", err, tc.field)
			}
			if n := len(log.reqs); n != 0 {
				t.Fatalf("sent %d requests despite the unpersisted change", n)
			}
		})
	}
}

// A Flush that writes nothing has nothing to drop, and does not pay for the
// comparison of the whole spec.
func TestNoopFlushDoesNotCheckNonStatusFields(t *testing.T) {
	c, _, log := newClient(t)
	p := patcher.New(c, fetch(t, c))
	p.Object().Spec.Paused = false
	if err := p.Flush(ctx); err != nil || len(log.reqs) != 0 {
		t.Fatalf("no-op Flush with a spec change = %v, %d requests; want nil, 0", err, len(log.reqs))
	}
	p.Object().Status.ReadyReplicas = 5
	if err := p.Flush(ctx); !errors.Is(err, patcher.ErrNonStatusChange) {
		t.Fatalf("writing Flush = %v, want ErrNonStatusChange", err)
	}
}

func TestNilEmptyLabelsAreNoChange(t *testing.T) {
	c, _, _ := newClient(t)
	p := patcher.New(c, fetch(t, c))
	p.Object().Labels = map[string]string{}
	p.Object().Status.ReadyReplicas = 2
	if err := p.Flush(ctx); err != nil {
		t.Fatalf("an empty label map instead of nil is not a change: %v", err)
	}
}

func TestFlushDeletedObjectIsNotFound(t *testing.T) {
	c, other, _ := newClient(t)
	p := patcher.New(c, fetch(t, c))
	if err := other.Delete(ctx, fetch(t, other)); err != nil {
		t.Fatal(err)
	}
	p.Object().Status.ReadyReplicas = 2
	if err := p.Flush(ctx); !apierrors.IsNotFound(err) {
		t.Fatalf("Flush of a deleted object = %v, want NotFound", err)
	}
}

func TestBadInputIsAnErrorNotAPanic(t *testing.T) {
	c, _, _ := newClient(t)
	var typedNil *appsv1.Deployment
	for name, err := range map[string]error{
		"typed nil":  patcher.New(c, typedNil).Flush(ctx),
		"nil client": patcher.New(nil, deployment()).Retry(ctx, func(*appsv1.Deployment) error { return nil }),
	} {
		if err == nil {
			t.Errorf("%s: no error", name)
		}
	}
	p := patcher.New(c, typedNil)
	if p.Object() != nil || p.HasChanges() {
		t.Error("a patcher over a nil object has an object or changes")
	}
	if _, err := p.AddFinalizer(ctx, "x/y"); err == nil {
		t.Error("AddFinalizer on a nil object: no error")
	}
	var conds []metav1.Condition
	if patcher.MarkObserved(typedNil, new(int64)) || patcher.SetCondition(typedNil, nil, metav1Condition()) || !patcher.SetCondition(typedNil, &conds, metav1Condition()) {
		t.Error("condition helpers changed something on nil input")
	}
	if _, err := patcher.Fetch(ctx, c, keyWeb, typedNil); err == nil {
		t.Error("Fetch into a typed nil: no error")
	}
	// The nil *Patcher a failed Fetch returns.
	var nilPatcher *patcher.Patcher[*appsv1.Deployment]
	if nilPatcher.Object() != nil || nilPatcher.HasChanges() {
		t.Error("a nil patcher has an object or changes")
	}
	for name, err := range map[string]error{
		"Flush":           nilPatcher.Flush(ctx),
		"Retry":           nilPatcher.Retry(ctx, func(*appsv1.Deployment) error { return nil }),
		"Err":             nilPatcher.Err(),
		"AddFinalizer":    second(nilPatcher.AddFinalizer(ctx, "x/y")),
		"RemoveFinalizer": second(nilPatcher.RemoveFinalizer(ctx, "x/y")),
	} {
		if !errors.Is(err, patcher.ErrNilPatcher) {
			t.Errorf("nil patcher %s = %v, want ErrNilPatcher", name, err)
		}
	}
}

func second[A any](_ A, err error) error { return err }
