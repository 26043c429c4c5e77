package explore

import (
	"github.com/statuspatch/statuspatch/testenv/explore/internal/book"

	"reflect"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
)

// A lost write made by a reconciler's chosen step over that reconciler's
// own earlier write is judged again after the schedule, against the same
// schedule up to the step that made it, with the same faults (each
// stale read of the steps before, each crash after the same write, each
// write in flight delivered at the same point) but that step's own
// stale reads, made fresh (ownjudge.go). Taken out, a crash or an
// earlier stale read moves what later steps do, and their writes no
// longer match (TestLostWriteJudgedWithTheSameCrash; machine-api-
// operator's status.replicas after a stale read of the spec before a
// scale-up, examples/realops3). When the step's fresh reads do not make
// its crash, the verdict is Unknown, and the violation is taken back.
// If that schedule's corresponding write (the same
// chosen step's same write of the object) sets each field the suspect
// write changed to the same value, the stale read changed nothing the
// write sent, so nothing was lost, and the violation is taken back. A
// field derived only from other objects is that case: scheduler-plugins'
// ElasticQuota controller writes status.used from the Pods by a blind
// merge patch, and a reconcile that reads its own object stale (its
// earlier write not yet in the cache) and the Pods fresh sends the patch
// fresh reads send (TestLostWriteJudgedByTheFreshSchedule). A write that
// builds on the stale value (an append to a list, an increment) sets
// another value than the fresh schedule's, and stands; so does one the
// fresh schedule does not make, a drain's, an action's, the old leader's
// write delivered late, and a write over another writer's field (a
// user's label a forced apply takes back unseen: the fresh schedule's
// writer would have seen it, TestApplyRestatingItsOwnFieldsLosesNothing).

// writeAt names a write across schedules: pos, its chosen step's place
// among the schedule's chosen steps without the deliveries of writes in
// flight (the fresh schedule's script, ownjudge.go); key, the object;
// nth, which of the step's new versions of the object it made.
type writeAt struct {
	pos int
	key book.Key
	nth int
}

// suspectWrite is a lost write to judge after the schedule: where it was
// made, the version it made and the leaves it changed, and the messages
// of its violations.
type suspectWrite struct {
	at     writeAt
	cur    map[string]any
	leaves []book.Leaf
	msgs   []string
}

// noteWriteAt names the write that made h's newest version, cur, and
// keeps what it made for a judgement that takes this schedule as the
// fresh one; ok is false for a write no fresh schedule has the like of
// (an action's, a drain's, a late delivery's, one outside a step).
func (c *checks) noteWriteAt(h *book.History, cur map[string]any) (writeAt, bool) {
	s := c.trace.cur
	if s == nil || s.action || s.sentBy > 0 || s.step.Drain {
		return writeAt{}, false
	}
	at := writeAt{key: h.Key, pos: chosenPos(c.trace.chosen)}
	if s.made == nil {
		s.made = map[book.Key]int{}
	}
	at.nth = s.made[h.Key]
	s.made[h.Key]++
	if c.written == nil {
		c.written = map[writeAt]map[string]any{}
	}
	c.written[at] = cur
	return at, true
}

// sameAs reports that fresh, the version the fresh schedule's
// corresponding write made, has each leaf w changed at w's value.
func (w suspectWrite) sameAs(fresh map[string]any) bool {
	if fresh == nil {
		return false
	}
	for _, l := range w.leaves {
		a, _, _ := unstructured.NestedFieldNoCopy(w.cur, l.Fields...)
		b, _, _ := unstructured.NestedFieldNoCopy(fresh, l.Fields...)
		if !reflect.DeepEqual(a, b) && (!book.Zero(a) || !book.Zero(b)) {
			return false
		}
	}
	return true
}
