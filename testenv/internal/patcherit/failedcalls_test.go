package patcherit_test

import (
	"errors"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/util/wait"
	"sigs.k8s.io/controller-runtime/pkg/client"

	v1 "github.com/statuspatch/statuspatch/internal/testapi/v1"
	"github.com/statuspatch/statuspatch/patcher"
)

// What a failed call leaves behind (issue 23, items 3, 7 and 8).

// appendItem is the append-style decision of these tests: not idempotent,
// so a decision applied twice shows as a duplicate.
func appendItem(item string) func(*v1.Widget) error {
	return func(w *v1.Widget) error {
		w.Status.Items = append(w.Status.Items, item)
		return nil
	}
}

// foreignAppend is another writer appending item under the lock, through
// its own client.
func foreignAppend(c client.Client, key client.ObjectKey, item string) func() error {
	return func() error {
		p, err := patcher.Fetch(ctx, c, key, &v1.Widget{}, patcher.WithMetrics(nil))
		if err != nil {
			return err
		}
		return p.Retry(ctx, appendItem(item))
	}
}

func retrySamples(t *testing.T, reg *prometheus.Registry) uint64 {
	t.Helper()
	mfs, err := reg.Gather()
	if err != nil {
		t.Fatal(err)
	}
	var n uint64
	for _, mf := range mfs {
		if mf.GetName() == "statuspatch_retry_attempts" {
			for _, m := range mf.GetMetric() {
				n += m.GetHistogram().GetSampleCount()
			}
		}
	}
	return n
}

// Item 7. Before: 1 sample after 3 Retries (only the successful one was
// observed). After: every Retry observes statuspatch_retry_attempts once.
func TestEveryRetryObservesItsAttempts(t *testing.T) {
	e := env(t)
	reg := prometheus.NewRegistry()
	key := newWidget(t, e.Client)
	fetchP := func() *patcher.Patcher[*v1.Widget] {
		p, err := patcher.Fetch(ctx, e.Client, key, &v1.Widget{}, patcher.WithMetrics(reg))
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	boom := errors.New("boom")
	if err := fetchP().Retry(ctx, func(*v1.Widget) error { return boom }); !errors.Is(err, boom) {
		t.Fatalf("Retry = %v, want mutate's error", err)
	}
	if err := fetchP().Retry(ctx, appendItem("a")); err != nil {
		t.Fatal(err)
	}
	p := fetchP()
	if err := e.Client.Delete(ctx, get(t, e.Client, key)); err != nil {
		t.Fatal(err)
	}
	if err := p.Retry(ctx, appendItem("b")); !apierrors.IsNotFound(err) {
		t.Fatalf("Retry on a deleted object = %v, want NotFound", err)
	}
	if n := retrySamples(t, reg); n != 3 {
		t.Fatalf("statuspatch_retry_attempts has %d samples after 3 Retries, want 3", n)
	}
}

// Item 8. Before: after ErrRetryExhausted the patcher still held the last
// attempt's append, and the next Retry refused with ErrPendingChanges
// naming status.items. After: a failed Retry leaves the object as the last
// state read, nothing pending, and the next Retry runs.
func TestRetryRunsAgainAfterExhaustion(t *testing.T) {
	e := env(t)
	key := newWidget(t, e.Client)
	ft := &faultyTransport{foreign: nil}
	other := ownClient(t)
	n := 0
	ft.foreign = func() error { n++; return foreignAppend(other, key, fmt.Sprintf("theirs-%d", n))() }
	ft.plan = []plannedFault{{kind: faultForeign}, {kind: faultForeign}}
	c := faultyClient(t, e, ft)
	p, err := patcher.Fetch(ctx, c, key, &v1.Widget{}, patcher.WithMetrics(nil),
		patcher.WithBackoff(wait.Backoff{Duration: time.Millisecond, Factor: 1, Steps: 2}))
	if err != nil {
		t.Fatal(err)
	}
	if err := p.Retry(ctx, appendItem("mine")); !errors.Is(err, patcher.ErrRetryExhausted) {
		t.Fatalf("first Retry = %v, want ErrRetryExhausted", err)
	}
	if p.HasChanges() {
		t.Fatal("after ErrRetryExhausted the patcher still holds the last attempt's changes")
	}
	if err := p.Retry(ctx, appendItem("mine")); err != nil {
		t.Fatalf("the next Retry = %v, want it to run and write", err)
	}
	if got := get(t, e.Client, key).Status.Items; !slices.Equal(got, []string{"theirs-1", "theirs-2", "mine"}) {
		t.Fatalf("server items %v, want [theirs-1 theirs-2 mine]", got)
	}
}

// Item 3. Own r.Update, a foreign status write, then a label changed in
// memory, then Retry. Before: the re-base conflict came first, Retry's
// re-read replaced the object and the label was gone, never written; Retry
// returned nil. After: ErrNonStatusChange, as without the r.Update; the
// label stays in memory and nothing is written.
func TestUnsavedLabelAfterOwnUpdateIsNotDropped(t *testing.T) {
	e := env(t)
	for _, ownUpdate := range []bool{false, true} {
		t.Run(fmt.Sprintf("own Update %v", ownUpdate), func(t *testing.T) {
			c, rec := countingClient(t, e)
			key := newWidget(t, e.Client)
			p, err := patcher.Fetch(ctx, c, key, &v1.Widget{}, patcher.WithMetrics(nil))
			if err != nil {
				t.Fatal(err)
			}
			if ownUpdate {
				p.Object().Labels = map[string]string{"saved": "1"}
				if err := c.Update(ctx, p.Object()); err != nil {
					t.Fatal(err)
				}
			}
			foreignStatusWrite(t, e.Client, key, func(w *v1.Widget) { w.Status.Phase = "Theirs" })
			if p.Object().Labels == nil {
				p.Object().Labels = map[string]string{}
			}
			p.Object().Labels["unsaved"] = "1"
			writes := func() int {
				n := 0
				for _, r := range rec.requests() {
					if r.Method != "GET" {
						n++
					}
				}
				return n
			}
			before := writes()
			err = p.Retry(ctx, appendItem("mine"))
			if !errors.Is(err, patcher.ErrNonStatusChange) {
				t.Fatalf("Retry = %v, want ErrNonStatusChange", err)
			}
			if p.Object().Labels["unsaved"] != "1" {
				t.Fatalf("the unsaved label is gone from memory: %v", p.Object().Labels)
			}
			if n := writes() - before; n != 0 {
				t.Fatalf("%d writes sent", n)
			}
			if got := get(t, e.Client, key); got.Labels["unsaved"] != "" || len(got.Status.Items) != 0 {
				t.Fatalf("server labels %v, items %v", got.Labels, got.Status.Items)
			}
		})
	}
}
