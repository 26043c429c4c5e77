package judge

import (
	"fmt"

	"github.com/statuspatch/statuspatch/testenv/explore/internal/book"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/types"
)

// Creations is what reconcilers created and user actions deleted in a
// schedule, for "no delete of own creation" and "deleted stays deleted",
// judged at each write against the book and the step being run (Acting).
// Its zero value is a schedule with nothing created yet.
type Creations struct {
	// created maps the UID of each object a reconciler created to its
	// creation; userDeleted the objects a user action deleted, userGone
	// their UIDs.
	created     map[types.UID]creation
	userDeleted map[book.Key]int
	userGone    map[types.UID]bool
	// suspects are the deletes of own creations after a stale read or a
	// crash, failed at once and judged again after the schedule;
	// freshDeletes the deletes of own creations that passed, by object
	// and creation, and where the first was made; made, how many objects
	// reconcilers created under each name.
	suspects     []suspectDelete
	freshDeletes Deletes
	made         map[book.Key]int
	// deleted are every delete of an own creation, passed or suspect,
	// by object and creation, and where the first was made.
	deleted Deletes
}

// creation is an object a reconciler created: the step, how many
// crashes the schedule had had then, and how many reconcilers' creations
// of its name came before it.
type creation struct{ step, crashes, nth int }

// ownDelete is a delete of an own creation: the object, and how many
// reconcilers' creations of its name came before its own. Not the step
// that created it: without a crash, the crashed step's later writes
// create earlier, and without the deliveries of writes in flight, every
// later step's number is one less.
type ownDelete struct {
	key book.Key
	nth int
}

// suspectDelete is a delete to judge after the schedule: the step that
// made it, and the violation's message.
type suspectDelete struct {
	ownDelete
	at  deleteAt
	msg string
	// staleHere: the deleting step (a chosen one) had read a stale
	// version itself, judged too by the schedule with its reads fresh
	// (RetractedByStep); stale, it had, in the drain (or sent an
	// in-flight write after one).
	staleHere, stale bool
}

// deleteAt is where a delete was made: its chosen step's place among
// the schedule's chosen steps but the deliveries of writes in flight
// (Acting.Pos), and whether the step was one of the drain's.
type deleteAt struct {
	pos   int
	drain bool
}

// noLater reports that a delete at fresh, in the fresh schedule, came no
// later than one at d: at the same step or an earlier one, or both in
// their schedules' drains.
func (fresh deleteAt) noLater(d deleteAt) bool {
	return fresh.pos <= d.pos || fresh.drain && d.drain
}

// Deletes are the deletes of own creations a schedule made from fresh
// reads in the process that created them, each where it was first made.
type Deletes map[ownDelete]deleteAt

// NoteWritten runs after each write of step s (nil: outside a step) that
// made a new version of k, whose history is h. A write that made k
// present where it was absent is a creation, whatever its verb (a
// create, a server-side apply, an update that creates): a reconciler's is
// remembered as its own, and checked against what the user deleted
// ("deleted stays deleted": a reconciler of its For kind created again
// an object a user action deleted); an action's creation ends what its
// deletion said.
func (cs *Creations) NoteWritten(b *book.Book, k book.Key, h *book.History, s *Acting) (Failure, bool) {
	if s == nil || h.Versions[h.Newest()] == nil || (h.Newest() > 0 && h.Versions[h.Newest()-1] != nil) {
		return Failure{}, false
	}
	if s.Action {
		delete(cs.userDeleted, k)
		return Failure{}, false
	}
	if uid := b.UIDOf(k); uid != "" {
		if cs.made == nil {
			cs.made = map[book.Key]int{}
		}
		if cs.created == nil {
			cs.created = map[types.UID]creation{}
		}
		cs.created[uid] = creation{step: s.Step, crashes: s.Crashes, nth: cs.made[k]}
		cs.made[k]++
	}
	by, ok := cs.userDeleted[k]
	if !ok || s.ForKind() != k.GVK.String() {
		return Failure{}, false
	}
	return Failure{Object: k.String(), Message: fmt.Sprintf("%s, which the user deleted (step %d), was created again by %s, a reconciler of its kind%s",
		k, by, s.Request(), s.Stale())}, true
}

// CheckDelete runs after a successful delete of k by step s (nil:
// outside a step), whose uid it was; based is the version of k the step
// had seen (from 1; 0: none). A user action's delete is remembered. A
// reconciler's delete of what a reconciler of this schedule created
// fails ("no delete of own creation") when the step had read a stale
// version, or a crash came between the creation and the delete: then it
// acted on a state that was not the one to act on. A delete from fresh
// reads in the process that created it (a user's change asked for it) is
// not one, nor is the delete of a child whose parent the user deleted
// (parentGone), whatever the step read. A delete after a stale read or a
// crash is kept to judge again after the schedule (Retracted).
func (cs *Creations) CheckDelete(b *book.Book, k book.Key, uid types.UID, based int, s *Acting) (Failure, bool) {
	if s == nil || uid == "" {
		return Failure{}, false
	}
	if s.Action {
		if cs.userDeleted == nil {
			cs.userDeleted = map[book.Key]int{}
		}
		cs.userDeleted[k] = s.Step
		if cs.userGone == nil {
			cs.userGone = map[types.UID]bool{}
		}
		cs.userGone[uid] = true
		return Failure{}, false
	}
	c, ok := cs.created[uid]
	if !ok || cs.parentGone(b, k, uid, s.Object) {
		return Failure{}, false
	}
	why := s.Stale()
	staleHere := why != "" && !s.Drain
	if why == "" && s.Crashes > c.crashes {
		why = fmt.Sprintf(", after %d crash(es) since", s.Crashes-c.crashes)
	}
	od, at := ownDelete{key: k, nth: c.nth}, deleteAt{pos: s.Pos, drain: s.Drain}
	if cs.deleted == nil {
		cs.deleted = Deletes{}
	}
	if _, ok := cs.deleted[od]; !ok {
		cs.deleted[od] = at
	}
	if why == "" {
		if cs.freshDeletes == nil {
			cs.freshDeletes = Deletes{}
		}
		if _, ok := cs.freshDeletes[od]; !ok {
			cs.freshDeletes[od] = at
		}
		return Failure{}, false
	}
	seen := "without having read it"
	if based > 0 {
		seen = fmt.Sprintf("having seen v%d of it", based)
	}
	msg := fmt.Sprintf("%s (uid %s) created by step %d was deleted by %s, %s%s%s", k, shortUID(uid), c.step, s.Request(), seen, why, s.Note())
	cs.suspects = append(cs.suspects, suspectDelete{ownDelete: od, at: at, msg: msg, staleHere: staleHere, stale: s.Stale() != ""})
	return Failure{Object: k.String(), Message: msg}, true
}

// Suspects counts the deletes kept to judge after the schedule.
func (cs *Creations) Suspects() int { return len(cs.suspects) }

// FreshDeletes are the deletes of own creations that passed.
func (cs *Creations) FreshDeletes() Deletes { return cs.freshDeletes }

// Deleted are every delete of an own creation, passed or suspect.
func (cs *Creations) Deleted() Deletes { return cs.deleted }

// Retracted judges the kept deletes against fresh, the deletes that
// passed in the same schedule with every read fresh and no crash, and
// returns the messages of those it takes back: where that schedule
// deletes the same object (the same creation of its name) no later (at
// the same chosen step or an earlier one, or both in their drains), the
// state asked for the delete.
func (cs *Creations) Retracted(fresh Deletes) []string {
	var out []string
	for _, d := range cs.suspects {
		if at, ok := fresh[d.ownDelete]; ok && at.noLater(d.at) {
			out = append(out, d.msg)
		}
	}
	return out
}

// StaleSteps are the places (Acting.Pos) of the chosen steps whose own
// stale read made a kept delete, each once, in order.
func (cs *Creations) StaleSteps() []int {
	var out []int
	seen := map[int]bool{}
	for _, d := range cs.suspects {
		if d.staleHere && !seen[d.at.pos] {
			seen[d.at.pos] = true
			out = append(out, d.at.pos)
		}
	}
	return out
}

// RetractedByStep judges the kept deletes made by the chosen step at pos
// after a stale read of its own against fresh, the deletes that passed
// in the same schedule with every fault kept but that step's stale
// reads, made fresh (StepFreshScript): where that step deletes the same
// object (the same creation of its name) too, the stale read did not
// make the delete; the state did, with the earlier steps' faults (a
// child an earlier stale read created, which the user's change
// deselected: trust-manager's target in a Namespace the Bundle no longer
// selects), and it passes.
func (cs *Creations) RetractedByStep(pos int, fresh Deletes) []string {
	var out []string
	for _, d := range cs.suspects {
		if !d.staleHere || d.at.pos != pos {
			continue
		}
		if at, ok := fresh[d.ownDelete]; ok && at.noLater(d.at) {
			out = append(out, d.msg)
		}
	}
	return out
}

// CrashOnly reports that a kept delete's only suspicion is a crash since
// its creation: its own step read nothing stale.
func (cs *Creations) CrashOnly() bool {
	for _, d := range cs.suspects {
		if !d.staleHere && !d.stale {
			return true
		}
	}
	return false
}

// RetractCrashOnly judges the kept deletes whose only suspicion is a
// crash against noCrash, the deletes of own creations in the same
// schedule with its stale reads kept and its crashes (and deliveries of
// writes in flight) taken out (NoCrashScript; Deleted: suspect there or
// not, since the question is only whether the crash made the delete):
// where that schedule deletes the same object (the same creation of its
// name) no later, the crash did not make the delete (trust-manager's
// cleanup, from fresh reads after a restart, of a target an earlier
// stale read created in a Namespace the user's retarget deselected, made
// without the crash by a reconcile whose read of the Bundle lagged by
// its own status apply), and it passes: it is returned and judged no
// more. A process that forgot, with its memory, a child it created and
// deletes it as unknown does not delete it without the crash, and stands.
func (cs *Creations) RetractCrashOnly(noCrash Deletes) []string {
	var out []string
	kept := cs.suspects[:0]
	for _, d := range cs.suspects {
		if at, ok := noCrash[d.ownDelete]; ok && !d.staleHere && !d.stale && at.noLater(d.at) {
			out = append(out, d.msg)
			continue
		}
		kept = append(kept, d)
	}
	cs.suspects = kept
	return out
}

// Judged forgets the deletes kept to judge after the schedule.
func (cs *Creations) Judged() { cs.suspects = nil }

// parentGone reports that the user asked for the delete of k (whose uid it
// was) by deleting its parent: an owner its owner references name (by UID,
// so a parent the user created again is not the one deleted) was deleted
// by a user action; or, when k names no owner, the step reconciles
// (object) an object a user action deleted and no action created again
// (the cleanup of its finalizer).
func (cs *Creations) parentGone(b *book.Book, k book.Key, uid types.UID, object string) bool {
	var owners []types.UID
	if h := b.History(k); h != nil {
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
		if d.String() == object {
			return true
		}
	}
	return false
}

// shortUID is uid's first eight characters.
func shortUID(uid types.UID) string {
	if len(uid) > 8 {
		return string(uid[:8])
	}
	return string(uid)
}
