// Package eventsutil records events the way karpenter's pkg/events does:
// an Event holds the object it is about (InvolvedObject), and a Recorder
// publishes them. Its facts (ParamsFact.HeldParams) say what each
// function does with what a holder parameter holds: param<i>:<field>()
// when it only reads it, ? when it may do more.
package eventsutil

import (
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/client-go/tools/events"
)

type Event struct {
	InvolvedObject runtime.Object
	Reason         string
	Values         []string
}

type Recorder interface {
	Publish(...Event)
}

// recorder hands each event's object to client-go's recorder, a reader.
type recorder struct{ rec events.EventRecorder }

func (r *recorder) Publish(evts ...Event) { // want Publish:`^param0:InvolvedObject\(\)$`
	for _, evt := range evts {
		r.publish(evt)
	}
}

func (r *recorder) publish(evt Event) { // want publish:`^param0:InvolvedObject\(\)$`
	if evt.Reason == "" || len(evt.Values) == 0 {
		return
	}
	r.rec.Eventf(evt.InvolvedObject, nil, "Warning", evt.Reason, "", "")
}

// keeper keeps the events, and hands them out: it may do anything with
// what they hold.
type keeper struct{ evts []Event }

func (k *keeper) Publish(evts ...Event) { // want Publish:`^param0:InvolvedObject\?$`
	k.evts = append(k.evts, evts...)
}

func (k *keeper) Events() []Event { return k.evts }

// discard names none of its parameters.
type discard struct{}

func (discard) Publish(...Event) {} // want Publish:`^param0:InvolvedObject\(\)$`

// changer hands the held object to a function that may change it.
type changer struct{ change func(runtime.Object) }

func (c changer) Publish(evts ...Event) { // want Publish:`^param0:InvolvedObject\?$`
	for _, e := range evts {
		c.change(e.InvolvedObject)
	}
}

// Describe is a function, not a method: no interface runs it, no fact.
func Describe(e Event) string { return e.Reason }
