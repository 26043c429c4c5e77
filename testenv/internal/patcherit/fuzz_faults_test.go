package patcherit_test

import (
	"errors"
	"fmt"
	"testing"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"sigs.k8s.io/controller-runtime/pkg/client"

	v1 "github.com/statuspatch/statuspatch/internal/testapi/v1"
	"github.com/statuspatch/statuspatch/patcher"
)

// fuzzFaults are the faults FuzzTransportFaults draws from.
var fuzzFaults = []plannedFault{
	{kind: faultNone},
	{kind: fault5xxRetryAfter}, {kind: fault5xxRetryAfter, after: true},
	{kind: fault5xx}, {kind: fault5xx, after: true},
	{kind: faultReset}, {kind: faultReset, after: true},
	{kind: faultTimeout}, {kind: faultTimeout, after: true},
	{kind: faultForeign},
	{kind: faultOverwritten, after: true},
	{kind: faultOverwrittenRetryAfter, after: true},
}

// FuzzTransportFaults runs random sequences of Fetch+Flush and Retry
// (fresh or on the previous patcher), each an append-style decision with a
// unique item, on the real API server, with random faults on the status
// PATCHes: 5xx with and without Retry-After, resets and timeouts before
// and after the server applied the write, another writer's write first
// (a real 409) or after (then a reset, or a 500 with Retry-After whose
// resend by client-go gets the server's 409: the write stored, overwritten,
// and only the object's history tells). Invariants, after every call:
// no panic; a call that returned nil stored its item exactly once; a
// Conflict stored nothing; any other error stored it at most once; every
// item another writer stored is still there, once.
//
// The seed corpus runs in plain go test. A longer run:
//
//	cd testenv && go test ./internal/patcherit -run '^$' -fuzz FuzzTransportFaults -fuzztime 3000x
func FuzzTransportFaults(f *testing.F) {
	for _, seed := range [][]byte{
		{0, 1, 2},                 // Flush, 500 with Retry-After after the write was stored
		{1, 1, 2},                 // Retry, the same
		{0, 2, 4, 6, 1, 2, 8, 10}, // Flush: 503 stored, then a reset stored; Retry: a timeout stored
		{1, 2, 9, 2, 2, 1, 9},     // Retry: a foreign write first, then a 500 stored; Retry again: a foreign write
		{1, 1, 10, 2, 2, 3, 5},    // Retry: overwritten after it was stored; Retry on the same patcher: 503 and reset before
		{0, 1, 9, 1, 2, 7, 2},     // Flush: a real 409; Retry: a timeout and a 500, both before
		{2, 2, 2, 2, 1, 2, 4, 0},  // Retry on the previous patcher, 500s stored
		{1, 2, 1, 1, 0, 2, 3, 3},
		{0, 1, 11},                 // Flush: stored, overwritten, 500 with Retry-After; the resend gets a 409
		{1, 1, 11},                 // Retry: the same
		{1, 2, 11, 9, 0, 2, 11, 0}, // Retry: the same, then the resend meets a foreign write; Flush: the same, then passes
		{2, 2, 11, 11, 2, 1, 9},    // Retry: the same, and the resend (a 409) is met by another overwrite and 500; Retry again: a foreign write
	} {
		f.Add(seed)
	}
	e := env(f)
	other, err := client.New(e.Config, client.Options{Scheme: e.Scheme, Mapper: e.Mapper})
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) > 24 {
			data = data[:24]
		}
		key := newWidget(t, e.Client)
		foreign := map[string]bool{} // items another writer was told were stored
		n := 0
		ft := &faultyTransport{}
		ft.foreign = func() error {
			n++
			item := fmt.Sprintf("theirs-%d", n)
			err := foreignAppend(other, key, item)()
			if err == nil {
				foreign[item] = true
			}
			return err
		}
		c := faultyClient(t, e, ft)
		var last *patcher.Patcher[*v1.Widget]
		for i := 0; len(data) >= 2; i++ {
			op, nf := data[0]%3, int(data[1]%3)
			data = data[2:]
			var plan []plannedFault
			for ; nf > 0 && len(data) > 0; nf-- {
				plan = append(plan, fuzzFaults[int(data[0])%len(fuzzFaults)])
				data = data[1:]
			}
			ft.mu.Lock()
			ft.plan = plan
			ft.mu.Unlock()
			item := fmt.Sprintf("mine-%d", i)
			err := fuzzCall(t, c, key, op, item, &last)
			ft.mu.Lock()
			ft.plan = nil
			ft.mu.Unlock()
			items := get(t, e.Client, key).Status.Items
			stored := countOf(items, item)
			switch {
			case err == nil && stored != 1:
				t.Fatalf("call %d (op %d, faults %v) returned nil, %s stored %d times: %v", i, op, plan, item, stored, items)
			case apierrors.IsConflict(err) && stored != 0:
				t.Fatalf("call %d (op %d, faults %v) returned a Conflict, %s stored %d times: %v", i, op, plan, item, stored, items)
			case stored > 1:
				t.Fatalf("call %d (op %d, faults %v) = %v, %s stored %d times: %v", i, op, plan, err, item, stored, items)
			}
			for it := range foreign {
				if countOf(items, it) != 1 {
					t.Fatalf("call %d (op %d, faults %v): the other writer's %s is stored %d times: %v", i, op, plan, it, countOf(items, it), items)
				}
			}
			if err != nil && !apierrors.IsConflict(err) && !errors.Is(err, patcher.ErrWriteOutcomeUnknown) && !errors.Is(err, patcher.ErrRetryExhausted) {
				t.Logf("call %d (op %d, faults %v) = %v", i, op, plan, err)
			}
		}
	})
}

// fuzzCall runs one decision: 0 Fetch and Flush, 1 Fetch and Retry, 2
// Retry on the previous Retry's patcher (or a new one). The patchers
// watch through c (WithWatcher), as a ForManager client's do.
func fuzzCall(t *testing.T, c client.WithWatch, key client.ObjectKey, op byte, item string, last **patcher.Patcher[*v1.Widget]) error {
	t.Helper()
	p := *last
	if op != 2 || p == nil {
		var err error
		if p, err = patcher.Fetch(ctx, c, key, &v1.Widget{}, patcher.WithMetrics(nil), fastRetry, patcher.WithWatcher(c)); err != nil {
			return err
		}
	}
	if op == 0 {
		_ = appendItem(item)(p.Object())
		return p.Flush(ctx)
	}
	*last = p
	return p.Retry(ctx, appendItem(item))
}
