package explore

import (
	"github.com/statuspatch/statuspatch/testenv/explore/internal/book"
	"github.com/statuspatch/statuspatch/testenv/explore/internal/callsite"

	"context"
	"encoding/json"
	"fmt"
	"maps"
	"reflect"
	"strings"

	"k8s.io/apimachinery/pkg/runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// The old leader's writes in flight (Options.InFlightWrite,
// InFlightWrites). A leader that lost its lease does not stop at once: a
// GC pause or a partition lets it send one more write before it notices,
// and that request may reach the API server after the new leader has
// acted. At a crashInFlight point the old leader's reconcile runs on (its
// reads answered as at the crash) until its next write: that request is
// captured as sent, the object and the patch body as they are then
// (resourceVersion, preconditions and options verbatim), and the call
// fails with errCrashed, as the old process never sees the answer. With a
// bound above one (crashPoint.inFlight) the reconcile runs on past that
// failure, as one that logs an error and goes on, or whose deferred status
// write runs after it, does: each write it sends is held so, up to the
// bound; then every later call fails. A delivery item is queued for each
// held write: the explorer chooses when each runs, after any number of the
// new leader's steps, in any order, like any queued item (the drain's
// first round runs those no chosen step did), and each runs once. Its step
// sends the request and records what the server did with it as any write,
// judged by what the old leader's step had seen when it sent it.

// heldWrites are the old leader's writes in flight: those of one crash per
// schedule (held, in the order sent), captured from the step being run
// and each delivered by a queued item of its own (delivered counts the
// deliveries).
type heldWrites struct {
	ex        *explorer
	book      *book.Book
	trace     *trace
	work      *workQueue
	held      []*inFlight
	delivered int
}

// inFlight is a write the old leader sent and the server has not received.
type inFlight struct {
	// from is the step that sent it; it is that step's reconcile.
	from int
	// it is its delivery item; done, that it ran.
	it   item
	done bool
	// seen is what that step had seen when it sent the write.
	seen map[book.Key]int
	// w describes it: verb, object, what it was based on, the body.
	w Write
	// send delivers it through the explorer's client, recorded.
	send func(ctx context.Context) error
}

// holdsNext reports that the step's next write is to be held in flight:
// the step crashed with crashInFlight and has sent fewer writes since than
// the crash's bound.
func (hw *heldWrites) holdsNext() bool {
	c := hw.trace.cur
	return c != nil && c.crash.Kind == crashInFlight && c.sent < max(c.crash.InFlight, 1)
}

// hold keeps w, sent by the step being run, in flight; send delivers it.
// The call fails: no answer comes back.
func (hw *heldWrites) hold(w Write, send func(ctx context.Context) error) error {
	cur := hw.trace.cur
	cur.held = append(cur.held, &inFlight{from: cur.step.Index, seen: maps.Clone(cur.seen), w: w, send: send})
	return errCrashed
}

// holdWrite captures a write of the old leader as sent: a copy of obj, the
// patch's body as computed now, which resend sends when it is delivered.
// The call fails: no answer comes back.
func (hw *heldWrites) holdWrite(verb string, obj client.Object, p client.Patch, resend sendFunc) error {
	hw.trace.cur.sent++
	cp, ok := obj.DeepCopyObject().(client.Object)
	if !ok {
		return fmt.Errorf("explore: %T %s: copying the in-flight write: %w", obj, client.ObjectKeyFromObject(obj), errCrashed)
	}
	var pc client.Patch
	w := Write{Verb: verb, Object: fmt.Sprintf("%T %s", obj, client.ObjectKeyFromObject(obj)), At: callsite.Of()}
	if k, err := hw.book.KeyOf(obj, client.ObjectKeyFromObject(obj)); err == nil {
		w.Object = k.String()
		w.Based = hw.trace.cur.seenOrNone(k) + 1
	}
	if p != nil {
		data, err := p.Data(obj)
		if err != nil {
			// The client fails before sending: nothing is in flight.
			return fmt.Errorf("explore: %s: the patch of the in-flight write: %w", w.Object, err)
		}
		pc = client.RawPatch(p.Type(), data)
		w.Data = shorten(string(data), 240)
	}
	return hw.hold(w, func(ctx context.Context) error { return resend(ctx, cp, pc) })
}

// holdApply captures a server-side apply of the old leader as sent: the
// configuration as JSON now, decoded into a copy, which resend applies
// when it is delivered.
func (hw *heldWrites) holdApply(verb string, ac runtime.ApplyConfiguration, resend func(context.Context, runtime.ApplyConfiguration) error) error {
	hw.trace.cur.sent++
	k, data, err := applyTarget(ac)
	if err != nil {
		return err
	}
	cp := ac
	if t := reflect.TypeOf(ac); t.Kind() == reflect.Pointer {
		v := reflect.New(t.Elem())
		if err := json.Unmarshal(data, v.Interface()); err == nil {
			if c, ok := v.Interface().(runtime.ApplyConfiguration); ok {
				cp = c
			}
		}
	}
	w := Write{Verb: verb, Object: k.String(), Based: hw.trace.cur.seenOrNone(k) + 1, Data: shorten(string(data), 240), At: callsite.Of()}
	return hw.hold(w, func(ctx context.Context) error { return resend(ctx, cp) })
}

// ranCrash is the crash of s as its seed records it: a crashInFlight's
// bound is the writes it sent after it (at least 1), which replays it.
func (s *stepState) ranCrash() crashPoint {
	c := s.crash
	if c.Kind == crashInFlight {
		c.InFlight = max(s.sent, 1)
	}
	return c
}

// queueHeld queues the delivery of each write step s left in flight, the
// n-th (from 0) as item it with nth n.
func (hw *heldWrites) queueHeld(s *stepState, it item) {
	if len(s.held) == 0 || hw.held != nil {
		return
	}
	hw.held = s.held
	for n, h := range s.held {
		h.it = item{Rec: it.Rec, Action: -1, Key: it.Key, Deliver: true, Nth: n}
		hw.work.enqueue(h.it)
	}
}

// deliver runs a delivery item: the held write reaches the server, in a
// step of its own that has seen what the sending step had seen when it
// sent it. A delivery with nothing in flight (a replayed seed whose crash
// was taken out or lowered) does nothing.
func (hw *heldWrites) deliver(ctx context.Context, it item) {
	var h *inFlight
	for _, c := range hw.held {
		if c.it == it && !c.done {
			h = c
		}
	}
	s := &stepState{step: Step{Index: len(hw.trace.steps) + 1, Drain: hw.trace.drain}, seen: map[book.Key]int{}, plan: []int{}}
	nth, sender := "", hw.ex.setup.itemID(item{Rec: it.Rec, Action: -1, Key: it.Key})
	if it.Nth > 0 {
		nth = fmt.Sprintf(" %d", it.Nth+1)
	}
	s.step.Reconciler = fmt.Sprintf("in-flight write%s of %s (old leader)", nth, sender)
	if h == nil {
		s.step.Result = "nothing in flight"
	} else {
		s.seen, s.sentBy, s.sentNth, s.sentAt = maps.Clone(h.seen), h.from, it.Nth, h.w.At
		hw.trace.cur = s
		err := h.send(ctx)
		h.done = true
		hw.delivered++
		answer := "ok"
		if err != nil {
			answer = err.Error()
		}
		if nth != "" {
			nth = "write" + nth + " "
		}
		s.step.Result = fmt.Sprintf("%ssent by step %d before it lost the lease, delivered now: %s", nth, h.from, answer)
	}
	hw.trace.steps = append(hw.trace.steps, s.step)
	hw.trace.chosen = append(hw.trace.chosen, scriptStep{It: it})
	hw.trace.cur = nil
}

// heldState is the writes in flight not yet delivered, for the state hash
// ("" when none).
func (hw *heldWrites) heldState() string {
	var parts []string
	for _, h := range hw.held {
		if !h.done {
			parts = append(parts, fmt.Sprintf("%+v %v", h.w, h.seen))
		}
	}
	return strings.Join(parts, "; ")
}
