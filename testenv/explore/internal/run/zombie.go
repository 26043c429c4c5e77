package run

import (
	"github.com/statuspatch/statuspatch/testenv/explore/internal/book"
	"github.com/statuspatch/statuspatch/testenv/explore/internal/callsite"
	"github.com/statuspatch/statuspatch/testenv/explore/internal/faults"
	"github.com/statuspatch/statuspatch/testenv/explore/internal/intercept"
	"github.com/statuspatch/statuspatch/testenv/explore/internal/outcome"
	"github.com/statuspatch/statuspatch/testenv/explore/internal/queue"
	"github.com/statuspatch/statuspatch/testenv/explore/internal/schedule"

	"context"
	"maps"

	"k8s.io/apimachinery/pkg/runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// The old leader's writes in flight (Options.InFlightWrite,
// InFlightWrites; internal/faults models them, its held.go says how): the
// run's client captures each as sent (faults.CaptureObject,
// CaptureApply), holds it and fails the call with errCrashed; a delivery
// item is queued for each, whose step sends it and records what the
// server did with it as any write.

// Held are the old leader's writes in flight of the run (In), which
// it captures from the step being run and delivers, each in a step of its
// own.
type Held struct {
	ex    Explorer
	book  *book.Book
	trace *Trace
	work  *queue.Work
	In    faults.Held
}

// holdsNext reports that the step's next write is to be held in flight:
// the step crashed with crashInFlight and has sent fewer writes since than
// the crash's bound.
func (hw *Held) holdsNext() bool {
	c := hw.trace.Cur
	return c != nil && c.crash.Kind == crashInFlight && c.sent < max(c.crash.InFlight, 1)
}

// hold keeps w, sent by the step being run, in flight; send delivers it.
// The call fails: no answer comes back.
func (hw *Held) hold(w faults.Write, send func(ctx context.Context) error) error {
	cur := hw.trace.Cur
	cur.held = append(cur.held, faults.Hold(cur.Step.Index, cur.Seen, w, send))
	return errCrashed
}

// holdWrite captures a write of the old leader as sent
// (faults.CaptureObject), which resend sends when it is delivered. The
// call fails: no answer comes back.
func (hw *Held) holdWrite(verb string, obj client.Object, p client.Patch, resend intercept.Send) error {
	hw.trace.Cur.sent++
	w, send, err := faults.CaptureObject(hw.book, hw.trace.Cur.seenOrNone, verb, callsite.Of(), obj, p, resend)
	if err != nil {
		return err
	}
	return hw.hold(w, send)
}

// holdApply captures a server-side apply of the old leader as sent
// (faults.CaptureApply), which resend applies when it is delivered.
func (hw *Held) holdApply(verb string, ac runtime.ApplyConfiguration, resend intercept.SendApply) error {
	hw.trace.Cur.sent++
	k, data, err := book.KeyOfApply(ac)
	if err != nil {
		return err
	}
	w, send := faults.CaptureApply(k, data, hw.trace.Cur.seenOrNone(k), verb, callsite.Of(), ac, resend)
	return hw.hold(w, send)
}

// ranCrash is the crash of s as its seed records it (faults.Ran).
func (s *StepState) ranCrash() schedule.Crash { return faults.Ran(s.crash, s.sent) }

// queueHeld queues the delivery of each write step s, which ran item it,
// left in flight.
func (hw *Held) queueHeld(s *StepState, it schedule.Item) {
	for _, d := range hw.In.Queue(s.held, it) {
		hw.work.Enqueue(d)
	}
}

// deliver runs a delivery item: the held write reaches the server, in a
// step of its own that has seen what the sending step had seen when it
// sent it. A delivery with nothing in flight (a replayed seed whose crash
// was taken out or lowered) does nothing.
func (hw *Held) deliver(ctx context.Context, it schedule.Item) {
	h := hw.In.Pending(it)
	s := &StepState{Step: outcome.Step{Index: len(hw.trace.Steps) + 1, Drain: hw.trace.Drain}, Seen: map[book.Key]int{}, plan: []int{}}
	s.Step.Reconciler = faults.Delivery(it, hw.ex.ItemID(schedule.Item{Rec: it.Rec, Action: -1, Key: it.Key}))
	var err error
	if h != nil {
		s.Seen, s.sentBy, s.sentNth, s.sentAt = maps.Clone(h.Seen), h.From, it.Nth, h.Write.At
		hw.trace.Cur = s
		err = hw.In.Deliver(ctx, h)
	}
	s.Step.Result = faults.Delivered(it, h, err)
	hw.trace.Steps = append(hw.trace.Steps, s.Step)
	hw.trace.Chosen = append(hw.trace.Chosen, schedule.Chosen{It: it})
	hw.trace.Cur = nil
}
