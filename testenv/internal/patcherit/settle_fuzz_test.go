package patcherit_test

import (
	"fmt"
	"strings"
	"testing"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	v1 "github.com/statuspatch/statuspatch/internal/testapi/v1"
	"github.com/statuspatch/statuspatch/patcher"
)

// FuzzSettleFaults is FuzzTransportFaults for the cases of issue 30, on a
// server whose CRD drifted (status.plan pruned, status.phase defaulted):
// random sequences of decisions, each with random faults on its status
// PATCHes, another writer appending items in between. The decisions:
//
//	0 Flush (merge): append an item and set the pruned status.plan;
//	1 Retry (merge): the same;
//	2 Retry (apply): make the conditions exactly [C-i], removing the
//	  previous decision's condition (an apply removal);
//	3 Flush (merge) through a reader that serves the base once (a lagging
//	  cache);
//	4 Retry on a Gizmo: its notes become exactly {mine-i: null}, a JSON
//	  Patch that stores a null and removes the previous decision's key;
//	  the other writer sets the Gizmo's phase.
//
// Invariants after every call: a call that returned nil stored its
// decision exactly once (the item once; the conditions exactly [C-i]; the
// notes exactly {mine-i: null}); a Conflict stored nothing; no error stored
// it twice; the other writer's items stay, once.
//
// The seed corpus runs in plain go test. A longer run:
//
//	cd testenv && go test ./internal/patcherit -run '^$' -fuzz FuzzSettleFaults -fuzztime 700x
func FuzzSettleFaults(f *testing.F) {
	for _, seed := range [][]byte{
		{2, 1, 9, 2, 1, 10},       // apply removal after a foreign 409; then overwritten after storing
		{2, 1, 11, 0, 1, 11},      // apply and merge: stored, overwritten, the resend gets a 409
		{1, 1, 2, 3, 1, 2},        // pruned write stored, 500 with Retry-After; lagging reader after the resend's 409
		{3, 1, 11, 2, 2, 5, 6},    // lagging reader, overwritten; apply: reset before, then after
		{0, 1, 9, 1, 1, 11, 2, 1}, // Flush after a real 409; Retry overwritten; apply with no fault
		{4, 0, 4, 1, 2, 4, 1, 9},  // JSON Patch: a null, then a null and a remove stored, 500 with Retry-After; then a foreign 409
		{4, 1, 11, 4, 1, 10},      // JSON Patch: overwritten, the resend gets a 409 (or a 422); overwritten, reset
	} {
		f.Add(seed)
	}
	e := driftedEnv(f)
	other, err := client.New(e.Config, client.Options{Scheme: e.Scheme, Mapper: e.Mapper})
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) > 24 {
			data = data[:24]
		}
		key := newWidget(t, e.Client)
		gkey := client.ObjectKeyFromObject(newGizmo(t, e.Client))
		foreign := map[string]bool{}
		n := 0
		ft := &faultyTransport{}
		gizmo := false
		ft.foreign = func() error {
			n++
			if gizmo {
				g := &v1.Gizmo{}
				if err := other.Get(ctx, gkey, g); err != nil {
					return err
				}
				g.Status.Phase = fmt.Sprintf("phase-%d", n)
				return other.Status().Update(ctx, g)
			}
			item := fmt.Sprintf("theirs-%d", n)
			err := foreignAppend(other, key, item)()
			if err == nil {
				foreign[item] = true
			}
			return err
		}
		c := faultyClient(t, e, ft)
		for i := 0; len(data) >= 2; i++ {
			op, nf := data[0]%5, int(data[1]%3)
			data = data[2:]
			var plan []plannedFault
			for ; nf > 0 && len(data) > 0; nf-- {
				plan = append(plan, fuzzFaults[int(data[0])%len(fuzzFaults)])
				data = data[1:]
			}
			ft.mu.Lock()
			ft.plan = plan
			ft.mu.Unlock()
			mark := fmt.Sprintf("mine-%d", i)
			gizmo = op == 4
			var err error
			if gizmo {
				err = gizmoCall(c, gkey, mark)
			} else {
				err = settleCall(t, e.Client, c, key, op, mark)
			}
			ft.mu.Lock()
			ft.plan = nil
			ft.mu.Unlock()
			if gizmo {
				notes := storedStatus(t, e.Client, gkey)
				exact := strings.Contains(notes, fmt.Sprintf(`"notes":{%q:null}`, mark))
				switch {
				case err == nil && !exact:
					t.Fatalf("call %d (JSON Patch, faults %v) returned nil, stored %s", i, plan, notes)
				case apierrors.IsConflict(err) && strings.Contains(notes, mark):
					t.Fatalf("call %d (JSON Patch, faults %v) returned a Conflict (%v), stored %s", i, plan, err, notes)
				}
				continue
			}
			got := get(t, e.Client, key)
			stored := countOf(got.Status.Items, mark)
			if op == 2 {
				stored = 0
				if meta.FindStatusCondition(got.Status.Conditions, mark) != nil {
					stored = 1
					if err == nil && len(got.Status.Conditions) != 1 {
						t.Fatalf("call %d (apply, faults %v) returned nil, conditions %v: a removal reported stored", i, plan, conditionTypes(got))
					}
				}
			}
			switch {
			case err == nil && stored != 1:
				t.Fatalf("call %d (op %d, faults %v) returned nil, %s stored %d times: %v %v", i, op, plan, mark, stored, got.Status.Items, conditionTypes(got))
			case apierrors.IsConflict(err) && stored != 0:
				t.Fatalf("call %d (op %d, faults %v) returned a Conflict (%v), %s stored", i, op, plan, err, mark)
			case stored > 1:
				t.Fatalf("call %d (op %d, faults %v) = %v, %s stored %d times", i, op, plan, err, mark, stored)
			}
			for it := range foreign {
				if countOf(got.Status.Items, it) != 1 {
					t.Fatalf("call %d (op %d, faults %v): the other writer's %s is stored %d times: %v", i, op, plan, it, countOf(got.Status.Items, it), got.Status.Items)
				}
			}
		}
	})
}

// gizmoCall is decision 4 of FuzzSettleFaults.
func gizmoCall(c client.WithWatch, key client.ObjectKey, mark string) error {
	p, err := patcher.Fetch(ctx, c, key, &v1.Gizmo{}, patcher.WithMetrics(nil), fastRetry, patcher.WithWatcher(c))
	if err != nil {
		return err
	}
	return p.Retry(ctx, func(g *v1.Gizmo) error {
		g.Status.Notes = map[string]*string{mark: nil}
		return nil
	})
}

// settleCall runs one decision of FuzzSettleFaults (op) through c, whose
// status PATCHes carry the faults; live reads the server directly.
func settleCall(t *testing.T, live client.Client, c client.WithWatch, key client.ObjectKey, op byte, mark string) error {
	t.Helper()
	opts := []patcher.Option{patcher.WithMetrics(nil), fastRetry, patcher.WithWatcher(c)}
	merge := func(w *v1.Widget) error {
		w.Status.Items = append(w.Status.Items, mark)
		w.Status.Plan = &v1.WidgetPlan{}
		return nil
	}
	switch op {
	case 2:
		p, err := patcher.Fetch(ctx, c, key, &v1.Widget{}, append(opts, patcher.WithFieldOwner(applier), patcher.WithWriteMode(patcher.WriteApply))...)
		if err != nil {
			return err
		}
		return p.Retry(ctx, func(w *v1.Widget) error {
			w.Status.Conditions = []metav1.Condition{cond(mark, "Decided")}
			return nil
		})
	case 3:
		lr := &laggingReader{Client: live, old: get(t, live, key), lag: 1}
		p, err := patcher.Fetch(ctx, c, key, &v1.Widget{}, append(opts, patcher.WithAPIReader(lr))...)
		if err != nil {
			return err
		}
		lr.mu.Lock()
		lr.gets = 0
		lr.mu.Unlock()
		_ = merge(p.Object())
		return p.Flush(ctx)
	}
	p, err := patcher.Fetch(ctx, c, key, &v1.Widget{}, opts...)
	if err != nil {
		return err
	}
	if op == 1 {
		return p.Retry(ctx, merge)
	}
	_ = merge(p.Object())
	return p.Flush(ctx)
}
