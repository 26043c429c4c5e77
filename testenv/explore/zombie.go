package explore

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"reflect"

	"k8s.io/apimachinery/pkg/runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// The old leader's write in flight (Options.InFlightWrite). A leader that
// lost its lease does not stop at once: a GC pause or a partition lets it
// send one more write before it notices, and that request may reach the
// API server after the new leader has acted. At a crashInFlight point the
// old leader's reconcile runs on (its reads answered as at the crash) until
// its next write: that request is captured as sent, the object and the
// patch body as they are then (resourceVersion, preconditions and options
// verbatim), and the call fails with errCrashed, as the old process never
// sees the answer; every later call fails too. A delivery item is queued:
// the explorer chooses when it runs, after any number of the new leader's
// steps, like any queued item (the drain's first round runs it if no
// chosen step did), and it runs once. Its step sends the request and
// records what the server did with it as any write, judged by what the old
// leader's step had seen when it sent it.

// heldWrites is the old leader's write in flight: at most one per
// schedule (held), captured from the step being run and delivered by a
// queued item of its own (delivered counts its deliveries).
type heldWrites struct {
	ex        *explorer
	book      *versions
	trace     *trace
	work      *workQueue
	held      *inFlight
	delivered int
}

// inFlight is a write the old leader sent and the server has not received.
type inFlight struct {
	// from is the step that sent it; it is that step's reconcile.
	from int
	it   item
	// seen is what that step had seen when it sent the write.
	seen map[objKey]int
	// w describes it: verb, object, what it was based on, the body.
	w Write
	// send delivers it through the explorer's client, recorded.
	send func(ctx context.Context) error
}

// holdsNext reports that the step's next write is to be held in flight:
// the step crashed with crashInFlight and has not sent it yet.
func (hw *heldWrites) holdsNext() bool {
	return hw.trace.cur != nil && hw.trace.cur.crash.kind == crashInFlight && !hw.trace.cur.sent
}

// holdWrite captures a write of the old leader as sent: a copy of obj, the
// patch's body as computed now, which resend sends when it is delivered.
// The call fails: no answer comes back.
func (hw *heldWrites) holdWrite(verb string, obj client.Object, p client.Patch, resend sendFunc) error {
	hw.trace.cur.sent = true
	cp, ok := obj.DeepCopyObject().(client.Object)
	if !ok {
		return fmt.Errorf("explore: %T %s: copying the in-flight write: %w", obj, client.ObjectKeyFromObject(obj), errCrashed)
	}
	var pc client.Patch
	w := Write{Verb: verb, Object: fmt.Sprintf("%T %s", obj, client.ObjectKeyFromObject(obj)), At: callSite()}
	if k, err := hw.book.keyOf(obj, client.ObjectKeyFromObject(obj)); err == nil {
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
	hw.trace.cur.held = &inFlight{from: hw.trace.cur.step.Index, seen: maps.Clone(hw.trace.cur.seen), w: w,
		send: func(ctx context.Context) error { return resend(ctx, cp, pc) }}
	return errCrashed
}

// holdApply captures a server-side apply of the old leader as sent: the
// configuration as JSON now, decoded into a copy, which resend applies
// when it is delivered.
func (hw *heldWrites) holdApply(verb string, ac runtime.ApplyConfiguration, resend func(context.Context, runtime.ApplyConfiguration) error) error {
	hw.trace.cur.sent = true
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
	w := Write{Verb: verb, Object: k.String(), Based: hw.trace.cur.seenOrNone(k) + 1, Data: shorten(string(data), 240), At: callSite()}
	hw.trace.cur.held = &inFlight{from: hw.trace.cur.step.Index, seen: maps.Clone(hw.trace.cur.seen), w: w,
		send: func(ctx context.Context) error { return resend(ctx, cp) }}
	return errCrashed
}

// queueHeld queues the delivery of the write step s left in flight.
func (hw *heldWrites) queueHeld(s *stepState, it item) {
	if s.held == nil || hw.held != nil {
		return
	}
	s.held.it = it
	hw.held = s.held
	hw.work.enqueue(item{rec: it.rec, action: -1, key: it.key, deliver: true})
}

// deliver runs a delivery item: the held write reaches the server, in a
// step of its own that has seen what the sending step had seen. A
// delivery with nothing in flight (a replayed seed whose crash was taken
// out) does nothing.
func (hw *heldWrites) deliver(ctx context.Context, it item) {
	h := hw.held
	s := &stepState{step: Step{Index: len(hw.trace.steps) + 1, Drain: hw.trace.drain}, seen: map[objKey]int{}, plan: []int{}}
	s.step.Reconciler = fmt.Sprintf("in-flight write of %s (old leader)", hw.ex.itemID(item{rec: it.rec, action: -1, key: it.key}))
	switch {
	case h == nil || h.it != (item{rec: it.rec, action: -1, key: it.key}) || hw.delivered > 0:
		s.step.Result = "nothing in flight"
	default:
		s.seen, s.sentBy, s.sentAt = maps.Clone(h.seen), h.from, h.w.At
		hw.trace.cur = s
		err := h.send(ctx)
		hw.delivered++
		answer := "ok"
		if err != nil {
			answer = err.Error()
		}
		s.step.Result = fmt.Sprintf("sent by step %d before it lost the lease, delivered now: %s", h.from, answer)
	}
	hw.trace.steps = append(hw.trace.steps, s.step)
	hw.trace.chosen = append(hw.trace.chosen, scriptStep{it: it})
	hw.trace.cur = nil
}

// heldState is the write in flight, for the state hash ("" when none).
func (hw *heldWrites) heldState() string {
	if hw.held == nil || hw.delivered > 0 {
		return ""
	}
	return fmt.Sprintf("%+v %v", hw.held.w, hw.held.seen)
}

// withoutDelivery copies script without the delivery of the write step i
// left in flight, if it has one.
func withoutDelivery(script []scriptStep, i int) []scriptStep {
	out := append([]scriptStep(nil), script...)
	if script[i].crash.kind != crashInFlight {
		return out
	}
	for j := i + 1; j < len(out); j++ {
		if d := out[j].it; d.deliver && d.rec == script[i].it.rec && d.key == script[i].it.key {
			return append(out[:j], out[j+1:]...)
		}
	}
	return out
}
