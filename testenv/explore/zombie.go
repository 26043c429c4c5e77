package explore

import (
	"github.com/statuspatch/statuspatch/testenv/explore/internal/book"
	"github.com/statuspatch/statuspatch/testenv/explore/internal/callsite"
	"github.com/statuspatch/statuspatch/testenv/explore/internal/faults"
	"github.com/statuspatch/statuspatch/testenv/explore/internal/intercept"

	"context"
	"maps"

	"k8s.io/apimachinery/pkg/runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// The old leader's writes in flight (Options.InFlightWrite,
// InFlightWrites; internal/faults models them, its held.go says how): the
// root's client captures each as sent (faults.CaptureObject,
// CaptureApply), holds it and fails the call with errCrashed; a delivery
// item is queued for each, whose step sends it and records what the
// server did with it as any write.

// heldWrites are the old leader's writes in flight of the run (in), which
// it captures from the step being run and delivers, each in a step of its
// own.
type heldWrites struct {
	ex    *explorer
	book  *book.Book
	trace *trace
	work  *workQueue
	in    faults.Held
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
func (hw *heldWrites) hold(w faults.Write, send func(ctx context.Context) error) error {
	cur := hw.trace.cur
	cur.held = append(cur.held, faults.Hold(cur.step.Index, cur.seen, w, send))
	return errCrashed
}

// holdWrite captures a write of the old leader as sent
// (faults.CaptureObject), which resend sends when it is delivered. The
// call fails: no answer comes back.
func (hw *heldWrites) holdWrite(verb string, obj client.Object, p client.Patch, resend intercept.Send) error {
	hw.trace.cur.sent++
	w, send, err := faults.CaptureObject(hw.book, hw.trace.cur.seenOrNone, verb, callsite.Of(), obj, p, resend)
	if err != nil {
		return err
	}
	return hw.hold(w, send)
}

// holdApply captures a server-side apply of the old leader as sent
// (faults.CaptureApply), which resend applies when it is delivered.
func (hw *heldWrites) holdApply(verb string, ac runtime.ApplyConfiguration, resend intercept.SendApply) error {
	hw.trace.cur.sent++
	k, data, err := book.KeyOfApply(ac)
	if err != nil {
		return err
	}
	w, send := faults.CaptureApply(k, data, hw.trace.cur.seenOrNone(k), verb, callsite.Of(), ac, resend)
	return hw.hold(w, send)
}

// ranCrash is the crash of s as its seed records it (faults.Ran).
func (s *stepState) ranCrash() crashPoint { return faults.Ran(s.crash, s.sent) }

// queueHeld queues the delivery of each write step s, which ran item it,
// left in flight.
func (hw *heldWrites) queueHeld(s *stepState, it item) {
	for _, d := range hw.in.Queue(s.held, it) {
		hw.work.Enqueue(d)
	}
}

// deliver runs a delivery item: the held write reaches the server, in a
// step of its own that has seen what the sending step had seen when it
// sent it. A delivery with nothing in flight (a replayed seed whose crash
// was taken out or lowered) does nothing.
func (hw *heldWrites) deliver(ctx context.Context, it item) {
	h := hw.in.Pending(it)
	s := &stepState{step: Step{Index: len(hw.trace.steps) + 1, Drain: hw.trace.drain}, seen: map[book.Key]int{}, plan: []int{}}
	s.step.Reconciler = faults.Delivery(it, hw.ex.setup.itemID(item{Rec: it.Rec, Action: -1, Key: it.Key}))
	var err error
	if h != nil {
		s.seen, s.sentBy, s.sentNth, s.sentAt = maps.Clone(h.Seen), h.From, it.Nth, h.Write.At
		hw.trace.cur = s
		err = hw.in.Deliver(ctx, h)
	}
	s.step.Result = faults.Delivered(it, h, err)
	hw.trace.steps = append(hw.trace.steps, s.step)
	hw.trace.chosen = append(hw.trace.chosen, scriptStep{It: it})
	hw.trace.cur = nil
}
