package schedule

import (
	"fmt"
	"strconv"

	"github.com/statuspatch/statuspatch/testenv/explore/internal/book"
)

// Chosen is a chosen step as a replay runs it: the item, the lag of each
// cached read, in order, and where it crashes.
type Chosen struct {
	It    Item
	Lags  []int
	Crash Crash
}

// Item is a queued reconcile (Rec >= 0) or action (Action >= 0), or,
// with Deliver, the delivery of the Nth (from 0) write Rec's reconcile of
// Key left in flight, or, with Pushed, the delivery to Rec of the oldest
// event the operator's code pushed to its channel source Pushed-1 (from
// 0) for the object Key.NN (Key.GVK empty; NN empty for an event that is
// not of an object).
type Item struct {
	Rec, Action int
	Key         book.Key
	Deliver     bool
	Nth         int
	Pushed      int
}

// The kinds of crash a seed records after "#": "#2" restart after the
// step's second write, "#2L" leader change, "#2Z" leader change with the
// old leader's next write in flight, "#2Z3" with up to its next three
// (Options.InFlightWrites).
const (
	CrashNone = iota
	CrashRestart
	CrashFailover
	CrashInFlight
)

// Crash says where a step crashes (Kind CrashNone: it does not): after
// its At-th successful write; for a CrashInFlight, InFlight is how many
// writes the old leader may leave in flight (0 counts as 1).
type Crash struct {
	At, Kind, InFlight int
}

// String is the crash as a seed says it: "#2", "#2L", "#2Z", "#2Z3"; ""
// for none.
func (c Crash) String() string {
	if c.Kind == CrashNone {
		return ""
	}
	s := fmt.Sprintf("#%d", c.At)
	switch c.Kind {
	case CrashFailover:
		s += "L"
	case CrashInFlight:
		s += "Z"
		if c.InFlight > 1 {
			s += strconv.Itoa(c.InFlight)
		}
	}
	return s
}

// WithoutDeliveries copies script without the deliveries of the writes
// step i left in flight from the keep-th (from 0) on, if it has any.
func WithoutDeliveries(script []Chosen, i, keep int) []Chosen {
	out := append([]Chosen(nil), script...)
	if script[i].Crash.Kind != CrashInFlight {
		return out
	}
	for j := len(out) - 1; j > i; j-- {
		if d := out[j].It; d.Deliver && d.Nth >= keep && d.Rec == script[i].It.Rec && d.Key == script[i].It.Key {
			out = append(out[:j], out[j+1:]...)
		}
	}
	return out
}
