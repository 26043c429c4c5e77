package run

import (
	"github.com/statuspatch/statuspatch/testenv/explore/internal/book"
	"github.com/statuspatch/statuspatch/testenv/explore/internal/crinternals"
	"github.com/statuspatch/statuspatch/testenv/explore/internal/judge"
	"github.com/statuspatch/statuspatch/testenv/explore/internal/outcome"
	"github.com/statuspatch/statuspatch/testenv/explore/internal/schedule"

	"context"
	"fmt"
	"reflect"
	"strings"

	"k8s.io/apimachinery/pkg/types"
)

// Pushed events. A controller's channel source (source.Channel, read by
// crinternals) is woken by what the operator's own code pushes to a
// channel (a queue manager, a cache, another controller's event
// handler), not by a watch. controller-runtime reads the channel on a
// goroutine and hands each event to the handler when it gets there; the
// explorer reads it with a pump of its own per channel, and after each
// step takes what the pumps got (a pump serves that request only after
// it has kept every event it received, and takes what is still buffered:
// every push the step's code completed is there). Each event becomes an
// item of the queue (schedule.Item.Pushed), which the schedule chooses
// as any other: when a pushed event reaches the controller's queue is a
// choice, as when a watch event does. Its step runs the channel's
// predicates and handler, and queues what they queue. A crash loses the
// events not yet delivered, with the process that held them.

// Pushes are the run's pumps, one per channel source of the controllers
// Setup built, and the events they got and not yet delivered.
type Pushes struct {
	pumps   []*pump
	pending map[schedule.Item][]reflect.Value
	// Got counts the events taken from the pumps and the deliveries that
	// queued a reconcile: a drain's round runs what they queue.
	Got int
}

// pump reads one channel source's channel until stopped.
type pump struct {
	rec, ch int // the reconciler, its channel (from 0)
	c       crinternals.Channel
	flush   chan chan []reflect.Value
	stop    chan struct{}
	done    chan struct{}
}

// start starts a pump for each channel source of the controllers built
// (by reconciler), stopping those of the process before.
func (p *Pushes) start(built func(rec int) []crinternals.Channel, recs int) {
	p.Stop()
	for rec := range recs {
		for j, c := range built(rec) {
			pm := &pump{rec: rec, ch: j, c: c, flush: make(chan chan []reflect.Value), stop: make(chan struct{}), done: make(chan struct{})}
			go pm.loop()
			p.pumps = append(p.pumps, pm)
		}
	}
}

// Stop stops the pumps and drops the events not delivered: the process
// that held them is gone.
func (p *Pushes) Stop() {
	for _, pm := range p.pumps {
		close(pm.stop)
		<-pm.done
	}
	p.pumps, p.pending = nil, nil
}

func (pm *pump) loop() {
	defer close(pm.done)
	cases := []reflect.SelectCase{
		{Dir: reflect.SelectRecv, Chan: pm.c.Source},
		{Dir: reflect.SelectRecv, Chan: reflect.ValueOf(pm.flush)},
		{Dir: reflect.SelectRecv, Chan: reflect.ValueOf(pm.stop)},
	}
	var got []reflect.Value
	for {
		i, v, ok := reflect.Select(cases)
		switch i {
		case 0:
			if !ok {
				cases[0].Chan = reflect.Value{} // closed: no more events
				continue
			}
			got = append(got, v)
		case 1:
			for cases[0].Chan.IsValid() {
				e, ok := pm.c.Source.TryRecv()
				if !ok {
					break
				}
				got = append(got, e)
			}
			v.Interface().(chan []reflect.Value) <- got
			got = nil
		default:
			return
		}
	}
}

// collect takes what the pumps got since the last collect (the events
// the operator's code pushed) and queues, through enqueue, the delivery
// of each.
func (p *Pushes) collect(enqueue func(schedule.Item)) {
	for _, pm := range p.pumps {
		reply := make(chan []reflect.Value)
		pm.flush <- reply
		for _, e := range <-reply {
			it := schedule.Item{Rec: pm.rec, Action: -1, Pushed: pm.ch + 1}
			if o := pm.c.Object(e); o != nil {
				it.Key.NN = types.NamespacedName{Namespace: o.GetNamespace(), Name: o.GetName()}
			}
			if p.pending == nil {
				p.pending = map[schedule.Item][]reflect.Value{}
			}
			p.pending[it] = append(p.pending[it], e)
			p.Got++
			enqueue(it)
		}
	}
}

// take is the oldest event pending for it, and whether more are.
func (p *Pushes) take(it schedule.Item) (reflect.Value, *pump, bool) {
	q := p.pending[it]
	if len(q) == 0 {
		return reflect.Value{}, nil, false
	}
	p.pending[it] = q[1:]
	for _, pm := range p.pumps {
		if pm.rec == it.Rec && pm.ch == it.Pushed-1 {
			return q[0], pm, len(q) > 1
		}
	}
	return reflect.Value{}, nil, false
}

// deliverPush runs r's delivery of a pushed event, in a step of its own:
// the channel's predicates and handler, under the operator's part of the
// calls lock as a watch's are; each request they queue queues the
// reconcile of the controller's kind. A delivery with nothing pending (a
// replayed seed whose push was taken out) does nothing.
func deliverPush(ctx context.Context, r *Run, it schedule.Item) {
	s := &StepState{Step: outcome.Step{Index: len(r.Trace.Steps) + 1, Drain: r.Trace.Drain}, Seen: map[book.Key]int{}, plan: []int{}}
	s.Step.Reconciler = "push " + r.ex.ItemID(it)
	r.Trace.Cur = s
	evt, pm, more := r.Pushes.take(it)
	if pm == nil {
		s.Step.Result = "nothing pending: no event pushed to that channel for that object is waiting"
	} else {
		var queued []string
		func() {
			defer func() {
				if p := recover(); p != nil {
					s.Step.Result = fmt.Sprintf("panic: %v", p)
					r.Trace.fail(judge.NameNoPanic, fmt.Sprintf("step %d (the handler of %s) panicked: %v", s.Step.Index, pm.c.Name, p))
				}
			}()
			kind := r.ex.Scenario().ForKinds[it.Rec]
			r.calls.Operator(func() {
				for _, req := range pm.c.Queue(ctx, evt) {
					r.Queue.Enqueue(schedule.Item{Rec: it.Rec, Action: -1, Key: book.Key{GVK: kind, NN: req.NamespacedName}})
					queued = append(queued, req.String())
				}
			})
		}()
		if s.Step.Result == "" {
			s.Step.Result = "queued nothing"
			if len(queued) > 0 {
				s.Step.Result = "queued " + strings.Join(queued, ", ")
				r.Pushes.Got++
			}
		}
		if more {
			r.Queue.Enqueue(it)
		}
	}
	r.Trace.Steps = append(r.Trace.Steps, s.Step)
	r.Trace.Chosen = append(r.Trace.Chosen, schedule.Chosen{It: it})
	r.Trace.Cur = nil
}
