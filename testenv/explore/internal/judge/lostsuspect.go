package judge

import (
	"fmt"
	"slices"
	"strings"

	"github.com/statuspatch/statuspatch/testenv/explore/internal/book"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
)

// checkLostWrite judges h's newest version, which replaced prev, by
// LostWrite, as the step being run made it, and keeps each loss over the
// same reconciler's own write to judge again after the schedule.
func (c *Checks) checkLostWrite(h *book.History, prev map[string]any) {
	s := c.trace.Acting()
	at, again := c.noteWriteAt(s, h, h.Versions[h.Newest()])
	w := Writer{Seen: -1}
	if s != nil {
		w.Step, w.Seen = s.Step, s.seen(h.Key)
		switch {
		case s.SentBy > 0:
			// The old leader's write is its reconciler's own: a later
			// step of that reconciler overwriting it is judged again
			// as over its own earlier write (TestLostWriteOverOldLeaderJudgedFresh).
			w.By = s.Sender
		case !s.Action:
			w.By = s.Reconciler
		}
		w.Judged, w.Based = s.Judged, s.Based
		w.SentBy, w.SentNth = s.SentBy, s.SentNth
	}
	if w.By != "" {
		w.Made = func(v int) string { return c.made[h.Key][v] }
	}
	if h.Versions[h.Newest()] != nil {
		w.Applied = s.applyDecision()
	}
	// The kind's map lists, read from the server only when a loss is
	// judged (book.Book.ListKeys): most writes lose nothing.
	keys := func(path []string) ([]string, bool) {
		if lk := c.book.ListKeys(h.Key.GVK); lk != nil {
			return lk(path)
		}
		return nil, false
	}
	leaves, lost := LostWrite(h, prev, w, keys)
	c.noteMade(h, w.By)
	suspect := suspectWrite{at: at, cur: h.Versions[h.Newest()], leaves: leaves, keys: keys}
	// Only a write over the same reconciler's own (or values as it saw
	// them) is judged again: one over another writer's field stands.
	for _, l := range lost {
		again = again && l.SameWriter
	}
	for _, l := range lost {
		if l.AsSeen && !again {
			// Values as the writer saw them, lost by a write no fresh
			// schedule has the like of (a late delivery's, a drain's)
			// or one that stands for another loss: not a loss.
			continue
		}
		l.Message += c.unreadNote(h, prev, l.Fields, leaves)
		l.Message += c.trace.WriteNote()
		suspect.lost = append(suspect.lost, l)
		c.trace.Fail(NameLostWrite, l.Failure)
		c.lost = append(c.lost, lostValues{h: h, at: h.Newest(), prev: prev, cur: suspect.cur,
			fields: leafFields(leaves, l.Fields), keys: keys, msg: l.Message})
	}
	if again && len(suspect.lost) > 0 {
		c.lwSuspects = append(c.lwSuspects, suspect)
	}
}

// noteMade notes that h's newest version was made by a write of
// reconciler by ("" for none: an action's, the scenario's), for
// Writer.Made.
func (c *Checks) noteMade(h *book.History, by string) {
	if by == "" {
		return
	}
	if c.made == nil {
		c.made = map[book.Key]map[int]string{}
	}
	if c.made[h.Key] == nil {
		c.made[h.Key] = map[int]string{}
	}
	c.made[h.Key][h.Newest()] = by
}

// unreadNote says, for a loss of paths (dotted leaves of leaves) of
// h's object, which replaced prev, where one of them holds a list and
// the kind's schema could not be read (book.Book.SchemaUnread), that
// whether the list is keyed, its order no decision, is Unknown: the
// verdict compared it in order. "" otherwise.
func (c *Checks) unreadNote(h *book.History, prev map[string]any, paths []string, leaves []book.Leaf) string {
	if c.book == nil {
		return ""
	}
	err := c.book.SchemaUnread(h.Key.GVK)
	if err == nil {
		return ""
	}
	cur := h.Versions[h.Newest()]
	for _, f := range leafFields(leaves, paths) {
		a, _, _ := unstructured.NestedFieldNoCopy(prev, f...)
		b, _, _ := unstructured.NestedFieldNoCopy(cur, f...)
		_, al := a.([]any)
		_, bl := b.([]any)
		if al || bl {
			return fmt.Sprintf(" (Unknown whether %s is a map list, its order no decision: %v; compared in order)", strings.Join(f, "."), err)
		}
	}
	return ""
}

// applyDecision describes the apply being recorded; nil for any other
// write, a user action's, and the old leader's write delivered late,
// which was decided in a process that is gone.
func (s *Acting) applyDecision() *book.Decision {
	if s == nil || !s.Applying || s.Action || s.SentBy > 0 {
		return nil
	}
	d := &book.Decision{Process: s.Crashes, By: s.Reconciler + " " + s.Object, Reads: map[string]int{}}
	for _, rd := range s.Reads {
		d.Reads[rd.Object] = max(d.Reads[rd.Object], rd.Version)
	}
	return d
}

// A lost write made by a reconciler's chosen step over that reconciler's
// own earlier write is judged again after the schedule, against the same
// schedule up to the step that made it, with the same faults (each
// stale read of the steps before, each crash after the same write, each
// write in flight delivered at the same point) but that step's own
// stale reads, made fresh (fresh.go). Taken out, a crash or an
// earlier stale read moves what later steps do, and their writes no
// longer match (TestLostWriteJudgedWithTheSameCrash; machine-api-
// operator's status.replicas after a stale read of the spec before a
// scale-up, examples/realops3). When the step's fresh reads do not make
// its crash, the verdict is Unknown, and the violation is taken back.
// If that schedule's corresponding write (the same
// chosen step's same write of the object) sets each field the suspect
// write changed to the same value, the stale read changed nothing the
// write sent, so nothing was lost, and the violation is taken back. A
// map list (the schema's x-kubernetes-list-type: map; metav1.Condition
// lists keyed by type) is compared by its items' keys, whatever their
// order; where the schema is not known, as one ordered value. If the
// two writes differ only in time-like values (a lastTransitionTime the
// stale read set anew: the fresh schedule's clock is another), what was
// lost is times only: the violation stands, ranked last and saying so
// (karpenter's NodeClaim conditions, examples/realops4). A
// field derived only from other objects is that case: scheduler-plugins'
// ElasticQuota controller writes status.used from the Pods by a blind
// merge patch, and a reconcile that reads its own object stale (its
// earlier write not yet in the cache) and the Pods fresh sends the patch
// fresh reads send (TestLostWriteJudgedByTheFreshSchedule). The old
// leader's write delivered late is its reconciler's own: a later write of
// that reconciler over it is judged so (trust-manager's Synced condition,
// examples/realops5: TestLostWriteOverOldLeaderJudgedFresh). A write that
// builds on the stale value (an append to a list, an increment) sets
// another value than the fresh schedule's, and stands; so does one the
// fresh schedule does not make, a drain's, an action's, the old leader's
// write delivered late, and a write over another writer's field (a
// user's label a forced apply takes back unseen: the fresh schedule's
// writer would have seen it, TestApplyRestatingItsOwnFieldsLosesNothing).

// WriteAt names a write across schedules: pos, its chosen step's place
// among the schedule's chosen steps without the deliveries of writes in
// flight (the fresh schedule's script, fresh.go); key, the object;
// nth, which of the step's new versions of the object it made.
type WriteAt struct {
	pos int
	key book.Key
	nth int
}

// suspectWrite is a lost write to judge after the schedule: where it was
// made, the version it made, the leaves it changed and its kind's map
// lists (nil: not known), and its losses (their violations).
type suspectWrite struct {
	at     WriteAt
	cur    map[string]any
	leaves []book.Leaf
	keys   book.ListKeys
	lost   []Lost
}

// noteWriteAt names the write that made h's newest version, cur, made by
// step s, and keeps what it made for a judgement that takes this
// schedule as the fresh one; ok is false for a write no fresh schedule
// has the like of (an action's, a drain's, a late delivery's, one
// outside a step).
func (c *Checks) noteWriteAt(s *Acting, h *book.History, cur map[string]any) (WriteAt, bool) {
	if s == nil || s.Action || s.SentBy > 0 || s.Drain {
		return WriteAt{}, false
	}
	at := WriteAt{key: h.Key, pos: s.Pos}
	at.nth = s.Made[h.Key]
	s.Made[h.Key]++
	if c.written == nil {
		c.written = map[WriteAt]map[string]any{}
	}
	c.written[at] = cur
	return at, true
}

// differs says how fresh, the version the fresh schedule's
// corresponding write made, differs from w's values (FreshDifference)
// in the leaves judged for loss l, and names the leaves that differ so
// (dotted). A loss over values as the writer saw them (Lost.AsSeen) is
// judged by its lost leaves only: the stale read overwrote no value it
// had not seen, so only a decision on those fields the fresh read makes
// otherwise is lost; a field the write sets besides, a clock stamp
// (at=time.Now()), is no lost value (TestLostWriteAsSeenWithAClock).
// Any other loss is judged by every leaf the write changed.
func (w suspectWrite) differs(l Lost, fresh map[string]any) (book.Difference, []string) {
	leaves := w.leaves
	if l.AsSeen {
		leaves = nil
		for _, lf := range w.leaves {
			if slices.Contains(l.Fields, lf.Dotted) {
				leaves = append(leaves, lf)
			}
		}
	}
	d := FreshDifference(leaves, w.cur, fresh, w.keys)
	var differ []string
	for _, lf := range leaves {
		if FreshDifference([]book.Leaf{lf}, w.cur, fresh, w.keys) == d {
			differ = append(differ, lf.Dotted)
		}
	}
	return d, differ
}
