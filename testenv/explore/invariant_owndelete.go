package explore

import (
	"github.com/statuspatch/statuspatch/testenv/explore/internal/book"
	"github.com/statuspatch/statuspatch/testenv/explore/internal/judge"

	"k8s.io/apimachinery/pkg/types"
)

// invOwnDelete: a reconciler deletes what a reconciler of the schedule
// created, after a stale read or a crash since (judge.Creations.CheckDelete,
// at the write; judged again after the schedule, ownjudge.go).
var invOwnDelete = invariant{name: InvariantOwnDelete}

// invDeletedStaysDeleted: a reconciler creates again an object of its own
// For kind that a user action deleted (judge.Creations.NoteWritten, at
// the write).
var invDeletedStaysDeleted = invariant{name: InvariantDeletedStaysDeleted}

// creations is the schedule's judge.Creations, what reconcilers created
// and user actions deleted, fed the step being run at each write.
type creations struct {
	ex    *explorer
	book  *book.Book
	trace *trace
	own   judge.Creations
}

// noteWritten runs after each write that made a new version of k
// (judge.Creations.NoteWritten).
func (cs *creations) noteWritten(k book.Key, h *book.History) {
	if f, ok := cs.own.NoteWritten(cs.book, k, h, cs.acting()); ok {
		cs.trace.failWith(InvariantDeletedStaysDeleted, f)
	}
}

// checkDelete runs after a successful delete of k, whose uid it was;
// based is the version the step had seen (judge.Creations.CheckDelete).
func (cs *creations) checkDelete(k book.Key, uid types.UID, based int) {
	if f, ok := cs.own.CheckDelete(cs.book, k, uid, based, cs.acting()); ok {
		cs.trace.failWith(InvariantOwnDelete, f)
	}
}

// acting is the step being run as judge.Creations reads it; nil outside
// a step.
func (cs *creations) acting() *judge.Acting {
	s := cs.trace.cur
	if s == nil {
		return nil
	}
	return &judge.Acting{Step: s.step.Index, Object: s.step.Object, Action: s.action, Drain: s.step.Drain,
		Crashes: cs.trace.crashes, Pos: chosenPos(cs.trace.chosen),
		ForKind: cs.stepForKind, Request: cs.trace.request, Stale: cs.trace.staleNote, Note: cs.trace.lastWriteNote}
}

// stepForKind is the For kind of the running step's reconciler ("" for an
// action or an in-flight write's delivery).
func (cs *creations) stepForKind() string {
	for i, rc := range cs.ex.setup.s.Reconcilers {
		if rc.Name == cs.trace.cur.step.Reconciler && i < len(cs.ex.setup.forKinds) {
			return cs.ex.setup.forKinds[i].String()
		}
	}
	return ""
}
