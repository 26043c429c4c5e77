package explore

import (
	"github.com/statuspatch/statuspatch/testenv/explore/internal/book"

	"fmt"
	"sort"
	"strings"
)

// invLostWrite: a write changes a field an earlier step set, and the write
// was computed from a version older than the one that write made
// (writebase.go; docs/explore.md, What is checked).
var invLostWrite = invariant{
	name:    InvariantLostWrite,
	onWrite: (*checks).checkLostWrite,
}

// checkLostWrite checks h's newest version, which replaced prev, and
// notes who wrote each field it changed.
func (c *checks) checkLostWrite(h *book.History, prev map[string]any) {
	v := h.Newest()
	cur := h.Versions[v]
	step := 0
	based := -1
	by, rec := "", ""
	had := "had seen only"
	at, judge := c.noteWriteAt(h, cur)
	if c.trace.cur != nil {
		step = c.trace.cur.step.Index
		if !c.trace.cur.action {
			rec = c.trace.cur.step.Reconciler
		}
		based = c.trace.cur.seenOrNone(h.Key)
		if seen := based; c.trace.cur.judged {
			// Judged by the version it was computed from (writebase.go).
			based = c.trace.cur.based - 1
			if based < seen {
				had = fmt.Sprintf("had read v%d but computed the write from", seen+1)
			}
		}
		if c.trace.cur.sentBy > 0 {
			// Judged by what the old leader had seen when it sent it.
			nth := ""
			if c.trace.cur.sentNth > 0 {
				nth = fmt.Sprintf(" %d", c.trace.cur.sentNth+1)
			}
			by = fmt.Sprintf(" (the old leader's write%s sent by step %d, in flight until now)", nth, c.trace.cur.sentBy)
		}
	}
	lost := map[book.Owner][]string{}
	// A create (prev absent) loses nothing: it succeeds only where the
	// object is gone, whoever deleted it. Nor does a delete (cur absent).
	// Nor does an apply that changes only what its own field manager's
	// earlier apply set, decided in the same reconcile at least as
	// informed: it restates that reconcile's newest decision (book.Restated).
	overwrite := prev != nil && cur != nil
	// Fields are owned per object, not per name: a deletion ends the
	// object and what anyone wrote on it. A write to an object created
	// again under the name loses only what was written on the new object
	// (its create or a later write), whatever the writer saw of the old
	// one. A new UID without a recorded absence is a create (record
	// inserts that absence: the deletion and the create between two
	// records).
	if cur == nil {
		h.Owners = map[string]book.Owner{}
		return
	}
	if overwrite && book.UIDOfVersion(prev) != book.UIDOfVersion(cur) {
		h.Owners = map[string]book.Owner{}
		overwrite = false
	}
	applied := c.applyDecision()
	leaves := book.ChangedLeaves(prev, cur)
	for _, l := range leaves {
		p := l.Dotted
		if o, ok := h.Owners[p]; ok && overwrite && o.Step > 0 && o.Step != step && o.Version > based &&
			!book.Restated(o, applied, prev, cur, l.Fields) {
			lost[o] = append(lost[o], p)
		}
		h.Owners[p] = book.Owner{Version: v, Step: step, By: rec, Applied: applied}
	}
	suspect := suspectWrite{at: at, cur: cur, leaves: leaves}
	for _, o := range sortedOwners(lost) {
		// Only a write over the same reconciler's own is judged again:
		// one over another writer's field stands (lostjudge.go).
		judge = judge && rec != "" && o.By == rec
		paths := lost[o]
		sort.Strings(paths)
		timeOnly, note := book.TimeLikeOnly(leaves, paths, prev, cur), ""
		if timeOnly {
			note = " (the values differ only in time-like fields: " + strings.Join(paths, ", ") + ")"
		}
		msg := fmt.Sprintf("%s: %s written by step %d (v%d) overwritten by step %d%s (v%d), which %s v%d%s%s",
			h.Key, strings.Join(paths, ", "), o.Step, o.Version+1, step, by, v+1, had, based+1, note, c.trace.writeNote())
		suspect.msgs = append(suspect.msgs, msg)
		c.trace.failOn(InvariantLostWrite, failDetail{object: h.Key.String(), fields: paths, timeOnly: timeOnly}, msg)
	}
	if judge && len(suspect.msgs) > 0 {
		// Judged again after the schedule (lostjudge.go).
		c.lwSuspects = append(c.lwSuspects, suspect)
	}
}

func sortedOwners(m map[book.Owner][]string) []book.Owner {
	out := make([]book.Owner, 0, len(m))
	for o := range m {
		out = append(out, o)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Version < out[j].Version })
	return out
}

// applyDecision describes the apply being recorded; nil for any other
// write, a user action's, and the old leader's write delivered late
// (zombie.go), which was decided in a process that is gone.
func (c *checks) applyDecision() *book.Decision {
	s := c.trace.cur
	if s == nil || !s.applying || s.action || s.sentBy > 0 {
		return nil
	}
	d := &book.Decision{Process: c.trace.crashes, By: s.step.Reconciler + " " + s.step.Object, Reads: map[string]int{}}
	for _, rd := range s.step.Reads {
		d.Reads[rd.Object] = max(d.Reads[rd.Object], rd.Version)
	}
	return d
}
