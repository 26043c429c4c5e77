package explore

import (
	"github.com/statuspatch/statuspatch/testenv/explore/internal/book"

	"fmt"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/types"
)

// invOwnDelete: a reconciler deletes what a reconciler of the schedule
// created, after a stale read or a crash since (checkDelete, at the
// write; judged again after the schedule, ownjudge.go).
var invOwnDelete = invariant{name: InvariantOwnDelete}

// invDeletedStaysDeleted: a reconciler creates again an object of its own
// For kind that a user action deleted (noteWritten, at the write).
var invDeletedStaysDeleted = invariant{name: InvariantDeletedStaysDeleted}

// creations is what reconcilers created and user actions deleted in a
// schedule, for InvariantOwnDelete and InvariantDeletedStaysDeleted, judged
// at each write against the book and the step being run.
type creations struct {
	ex    *explorer
	book  *book.Book
	trace *trace
	// created maps the UID of each object a reconciler created to its
	// creation; userDeleted the objects a user action deleted, userGone
	// their UIDs.
	created     map[types.UID]creation
	userDeleted map[book.Key]int
	userGone    map[types.UID]bool
	// suspects are the deletes of own creations after a stale read or a
	// crash, failed at once and judged again after the schedule;
	// freshDeletes the deletes of own creations that passed, by object
	// and creation, and where the first was made (ownjudge.go); made,
	// how many objects reconcilers created under each name.
	suspects     []suspectDelete
	freshDeletes map[ownDelete]deleteAt
	made         map[book.Key]int
}

// creation is an object a reconciler created: the step, how many
// crashes the schedule had had then, and how many reconcilers' creations
// of its name came before it.
type creation struct{ step, crashes, nth int }

// noteWritten runs after each write that made a new version of k. A write
// that made k present where it was absent is a creation, whatever its verb
// (a create, a server-side apply, an update that creates): a reconciler's
// is remembered as its own, and checked against what the user deleted; an
// action's creation ends what its deletion said.
func (cs *creations) noteWritten(k book.Key, h *book.History) {
	if cs.trace.cur == nil || h.Versions[h.Newest()] == nil || (h.Newest() > 0 && h.Versions[h.Newest()-1] != nil) {
		return
	}
	if cs.trace.cur.action {
		delete(cs.userDeleted, k)
		return
	}
	if uid := cs.book.UIDOf(k); uid != "" {
		if cs.made == nil {
			cs.made = map[book.Key]int{}
		}
		cs.created[uid] = creation{step: cs.trace.cur.step.Index, crashes: cs.trace.crashes, nth: cs.made[k]}
		cs.made[k]++
	}
	by, ok := cs.userDeleted[k]
	if !ok || cs.stepForKind() != k.GVK.String() {
		return
	}
	cs.trace.failOn(InvariantDeletedStaysDeleted, failDetail{object: k.String()}, fmt.Sprintf("%s, which the user deleted (step %d), was created again by %s, a reconciler of its kind%s",
		k, by, cs.trace.request(), cs.trace.staleNote()))
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

// checkDelete runs after a successful delete of k, whose uid it was. A
// user action's delete is remembered. A reconciler's delete of what a
// reconciler of this schedule created fails when the step had read a
// stale version, or a crash came between the creation and the delete:
// then it acted on a state that was not the one to act on. A delete from
// fresh reads in the process that created it (a user's change asked for
// it) is not one, nor is the delete of a child whose parent the user
// deleted (parentGone), whatever the step read. A delete after a stale
// read or a crash is judged again after the schedule (ownjudge.go).
func (cs *creations) checkDelete(k book.Key, uid types.UID, based int) {
	if cs.trace.cur == nil || uid == "" {
		return
	}
	if cs.trace.cur.action {
		cs.userDeleted[k] = cs.trace.cur.step.Index
		if cs.userGone == nil {
			cs.userGone = map[types.UID]bool{}
		}
		cs.userGone[uid] = true
		return
	}
	c, ok := cs.created[uid]
	if !ok || cs.parentGone(k, uid) {
		return
	}
	why := cs.trace.staleNote()
	if why == "" && cs.trace.crashes > c.crashes {
		why = fmt.Sprintf(", after %d crash(es) since", cs.trace.crashes-c.crashes)
	}
	od, at := ownDelete{key: k, nth: c.nth}, deleteAt{pos: chosenPos(cs.trace.chosen), drain: cs.trace.cur.step.Drain}
	if why == "" {
		if cs.freshDeletes == nil {
			cs.freshDeletes = map[ownDelete]deleteAt{}
		}
		if _, ok := cs.freshDeletes[od]; !ok {
			cs.freshDeletes[od] = at
		}
		return
	}
	seen := "without having read it"
	if based > 0 {
		seen = fmt.Sprintf("having seen v%d of it", based)
	}
	msg := fmt.Sprintf("%s (uid %s) created by step %d was deleted by %s, %s%s%s", k, shortUID(uid), c.step, cs.trace.request(), seen, why, cs.trace.lastWriteNote())
	cs.suspects = append(cs.suspects, suspectDelete{ownDelete: od, at: at, msg: msg})
	cs.trace.failOn(InvariantOwnDelete, failDetail{object: k.String()}, msg)
}

// parentGone reports that the user asked for the delete of k (whose uid it
// was) by deleting its parent: an owner its owner references name (by UID,
// so a parent the user created again is not the one deleted) was deleted
// by a user action; or, when k names no owner, the step reconciles an
// object a user action deleted and no action created again (the cleanup
// of its finalizer).
func (cs *creations) parentGone(k book.Key, uid types.UID) bool {
	var owners []types.UID
	if h := cs.book.History(k); h != nil {
		for v := h.Newest(); v >= 0; v-- {
			if h.Versions[v] == nil {
				continue
			}
			u := unstructured.Unstructured{Object: h.Versions[v]}
			if u.GetUID() != uid {
				continue
			}
			for _, ref := range u.GetOwnerReferences() {
				owners = append(owners, ref.UID)
			}
			break
		}
	}
	if len(owners) > 0 {
		for _, o := range owners {
			if cs.userGone[o] {
				return true
			}
		}
		return false
	}
	for d := range cs.userDeleted {
		if d.String() == cs.trace.cur.step.Object {
			return true
		}
	}
	return false
}
