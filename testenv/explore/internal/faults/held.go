package faults

import (
	"context"
	"fmt"
	"maps"
	"strings"

	"github.com/statuspatch/statuspatch/testenv/explore/internal/book"
	"github.com/statuspatch/statuspatch/testenv/explore/internal/schedule"
)

// The old leader's writes in flight (Options.InFlightWrite,
// InFlightWrites). A leader that lost its lease does not stop at once: a
// GC pause or a partition lets it send one more write before it notices,
// and that request may reach the API server after the new leader has
// acted. At a CrashInFlight point the old leader's reconcile runs on (its
// reads answered as at the crash) until its next write: the root captures
// that request as sent, the object and the patch body as they are then
// (resourceVersion, preconditions and options verbatim), holds it here
// (Hold) and fails the call with ErrCrashed, as the old process never
// sees the answer. With a bound above one (schedule.Crash.InFlight) the
// reconcile runs on past that failure, each write it sends held so, up to
// the bound. A delivery item is queued for each held write (Queue): the
// explorer chooses when each runs, after any number of the new leader's
// steps, in any order, like any queued item, and each runs once (Pending,
// Deliver), judged by what the old leader's step had seen when it sent
// it.

// Write describes a write in flight: verb, object, the version it was
// based on (1-based, 0: none), its body (shortened) and its call site.
type Write struct {
	Verb, Object string
	Based        int
	Data, At     string
}

// InFlight is a write the old leader sent and the server has not
// received.
type InFlight struct {
	// From is the step that sent it; it is that step's reconcile.
	From int
	// Item is its delivery item; Done, that it ran.
	Item schedule.Item
	Done bool
	// Seen is what that step had seen when it sent the write.
	Seen map[book.Key]int
	// Write describes it.
	Write Write
	// send delivers it through the explorer's client, recorded.
	send func(ctx context.Context) error
}

// Hold is w, sent by step from which had seen seen, held in flight; send
// delivers it.
func Hold(from int, seen map[book.Key]int, w Write, send func(ctx context.Context) error) *InFlight {
	return &InFlight{From: from, Seen: maps.Clone(seen), Write: w, send: send}
}

// Held are the old leader's writes in flight of one schedule: those of
// its one crash that left writes in flight, in the order sent, each
// delivered by a queued item of its own. Its zero value holds none.
type Held struct {
	held []*InFlight
	// Delivered counts the deliveries.
	Delivered int
}

// Holding reports that a crash of the schedule left writes in flight
// (delivered or not).
func (h *Held) Holding() bool { return h.held != nil }

// Count is the writes a crash left in flight.
func (h *Held) Count() int { return len(h.held) }

// Queue takes sent, the writes a step that ran item it left in flight,
// unless a crash already did, and returns the delivery item of each, the
// n-th (from 0) with Nth n, for the root to queue.
func (h *Held) Queue(sent []*InFlight, it schedule.Item) []schedule.Item {
	if len(sent) == 0 || h.held != nil {
		return nil
	}
	h.held = sent
	items := make([]schedule.Item, 0, len(sent))
	for n, w := range sent {
		w.Item = schedule.Item{Rec: it.Rec, Action: -1, Key: it.Key, Deliver: true, Nth: n}
		items = append(items, w.Item)
	}
	return items
}

// Pending is the write delivery item it delivers, nil when none is in
// flight (a replayed seed whose crash was taken out or lowered).
func (h *Held) Pending(it schedule.Item) *InFlight {
	var p *InFlight
	for _, w := range h.held {
		if w.Item == it && !w.Done {
			p = w
		}
	}
	return p
}

// Deliver sends w, pending, to the server, and returns the answer.
func (h *Held) Deliver(ctx context.Context, w *InFlight) error {
	err := w.send(ctx)
	w.Done = true
	h.Delivered++
	return err
}

// State is the writes in flight not yet delivered, for the state hash
// ("" when none).
func (h *Held) State() string {
	var parts []string
	for _, w := range h.held {
		if !w.Done {
			parts = append(parts, fmt.Sprintf("%+v %v", w.Write, w.Seen))
		}
	}
	return strings.Join(parts, "; ")
}

// Delivery names the step that runs delivery item it, whose write the
// reconcile sender sent (schedule.ID of its item): "in-flight write 2 of
// db:ns/x (old leader)"; the first write has no number.
func Delivery(it schedule.Item, sender string) string {
	nth := ""
	if it.Nth > 0 {
		nth = fmt.Sprintf(" %d", it.Nth+1)
	}
	return fmt.Sprintf("in-flight write%s of %s (old leader)", nth, sender)
}

// Delivered is the result of the step that delivered w, pending for
// item it (nil: nothing was in flight), and the server's answer err.
func Delivered(it schedule.Item, w *InFlight, err error) string {
	if w == nil {
		return "nothing in flight"
	}
	answer := "ok"
	if err != nil {
		answer = err.Error()
	}
	nth := ""
	if it.Nth > 0 {
		nth = fmt.Sprintf("write %d ", it.Nth+1)
	}
	return fmt.Sprintf("%ssent by step %d before it lost the lease, delivered now: %s", nth, w.From, answer)
}
