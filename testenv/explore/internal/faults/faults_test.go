package faults

import (
	"context"
	"math/rand/v2"
	"reflect"
	"testing"

	"github.com/statuspatch/statuspatch/testenv/explore/internal/schedule"
)

func TestPoints(t *testing.T) {
	restart, failover, none := schedule.Crash{Kind: schedule.CrashRestart}, schedule.Crash{Kind: schedule.CrashFailover}, schedule.Crash{}
	inFlight := func(n int) schedule.Crash { return schedule.Crash{Kind: schedule.CrashInFlight, InFlight: n} }
	for _, tc := range []struct {
		name string
		b    Bounds
		held bool
		want []schedule.Crash
	}{
		{"crashes only", Bounds{}, false, []schedule.Crash{restart, none}},
		{"leader changes", Bounds{LeaderChange: true}, false, []schedule.Crash{restart, failover, none}},
		{"a write in flight", Bounds{InFlightWrite: true}, false, []schedule.Crash{restart, failover, inFlight(1), none}},
		{"up to two in flight", Bounds{InFlightWrite: true, InFlightWrites: 2}, false, []schedule.Crash{restart, failover, inFlight(1), inFlight(2), none}},
		{"writes already held", Bounds{InFlightWrite: true, InFlightWrites: 2}, true, []schedule.Crash{restart, failover, none}},
	} {
		if got := Points(tc.b, tc.held); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%s: Points = %v, want %v", tc.name, got, tc.want)
		}
	}
}

func TestRanRecordsTheWritesSent(t *testing.T) {
	c := schedule.Crash{Kind: schedule.CrashInFlight, At: 2, InFlight: 3}
	if got := Ran(c, 2); got.InFlight != 2 || got.At != 2 {
		t.Errorf("Ran(%v, 2) = %v, want InFlight 2 at 2", c, got)
	}
	if got := Ran(c, 0); got.InFlight != 1 {
		t.Errorf("Ran(%v, 0) = %v, want InFlight 1", c, got)
	}
	if r := (schedule.Crash{Kind: schedule.CrashRestart, At: 1}); Ran(r, 3) != r {
		t.Errorf("Ran changed a restart: %v", Ran(r, 3))
	}
}

// TestHeldDeliversEachOnce: one crash's writes are queued, each delivered
// once by its item, and a later crash's are not held.
func TestHeldDeliversEachOnce(t *testing.T) {
	var h Held
	sent := 0
	send := func(context.Context) error { sent++; return nil }
	ws := []*InFlight{Hold(1, nil, Write{Verb: "patch", Object: "a"}, send), Hold(1, nil, Write{Verb: "update", Object: "a"}, send)}
	it := schedule.Item{Rec: 0, Action: -1}
	items := h.Queue(ws, it)
	if len(items) != 2 || !items[1].Deliver || items[1].Nth != 1 || h.Count() != 2 || !h.Holding() {
		t.Fatalf("Queue = %v (count %d)", items, h.Count())
	}
	if h.Queue([]*InFlight{Hold(2, nil, Write{}, send)}, it) != nil {
		t.Error("a second crash's writes were held")
	}
	if h.State() == "" {
		t.Error("State is empty with writes in flight")
	}
	for _, d := range items {
		w := h.Pending(d)
		if w == nil {
			t.Fatalf("nothing pending for %v", d)
		}
		if err := h.Deliver(context.Background(), w); err != nil {
			t.Fatal(err)
		}
		if h.Pending(d) != nil {
			t.Errorf("%v pending after its delivery", d)
		}
	}
	if sent != 2 || h.Delivered != 2 || h.State() != "" {
		t.Errorf("sent %d, Delivered %d, State %q: want 2, 2, empty", sent, h.Delivered, h.State())
	}
	if got := Describe(schedule.Crash{Kind: schedule.CrashInFlight, At: 1}, ws); got != "crashed after write 1: a standby manager took over; the old leader's next writes (patch a; update a) are in flight" {
		t.Errorf("Describe = %q", got)
	}
}

// fixed records the choices a plan makes.
type fixed struct{ made [][2]int }

func (f *fixed) Choose(n int) int   { f.made = append(f.made, [2]int{-1, n}); return n - 1 }
func (f *fixed) Fixed(v, n int) int { f.made = append(f.made, [2]int{v, n}); return v }

// TestPlanCrashesOnceThenReadsStaleOnce: first in first out with fresh
// reads up to the crash, then any item, one stale read.
func TestPlanCrashesOnceThenReadsStaleOnce(t *testing.T) {
	rng := rand.New(rand.NewPCG(Seed, 0))
	p := NewPlan(rng, Scale{Writes: 3})
	c := &fixed{}
	crashed := 0
	for crashed == 0 && p.Writes() < 3 {
		if p.Item(c, 3) != 0 {
			t.Fatal("an item other than the oldest before the crash")
		}
		if p.Lag(c, rng, 4) != 0 {
			t.Fatal("a stale read before the crash")
		}
		if k := p.Crash(); k != schedule.CrashNone {
			crashed++
			if k != schedule.CrashRestart && k != schedule.CrashFailover {
				t.Fatalf("crash kind %d", k)
			}
		}
	}
	if crashed != 1 {
		t.Fatalf("no crash within the pilot's 3 writes")
	}
	if k := p.Crash(); k != schedule.CrashNone {
		t.Fatalf("a second crash (%d)", k)
	}
	stale := 0
	for i := 0; i < ReadsAfter; i++ {
		if p.Lag(c, rng, 4) > 0 {
			stale++
		}
	}
	if stale != 1 {
		t.Errorf("%d stale reads of the %d after the crash, want 1", stale, ReadsAfter)
	}
	if p.Item(c, 3) != 2 {
		t.Error("after the crash, the item is not the chooser's")
	}
}

// TestDeliveryNamesTheWrite: the delivery's step is named by the write's
// place among those in flight, the first unnumbered.
func TestDeliveryNamesTheWrite(t *testing.T) {
	w := Hold(3, nil, Write{}, nil)
	first, second := schedule.Item{Deliver: true}, schedule.Item{Deliver: true, Nth: 1}
	for _, tc := range []struct{ got, want string }{
		{Delivery(first, "db:ns/x"), "in-flight write of db:ns/x (old leader)"},
		{Delivery(second, "db:ns/x"), "in-flight write 2 of db:ns/x (old leader)"},
		{Delivered(first, w, nil), "sent by step 3 before it lost the lease, delivered now: ok"},
		{Delivered(second, w, ErrCrashed), "write 2 sent by step 3 before it lost the lease, delivered now: " + ErrCrashed.Error()},
		{Delivered(first, nil, nil), "nothing in flight"},
	} {
		if tc.got != tc.want {
			t.Errorf("got %q, want %q", tc.got, tc.want)
		}
	}
}
