package explore

import (
	"fmt"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/types"
)

// What a reconciler created and a user deleted, for InvariantOwnDelete and
// InvariantDeletedStaysDeleted.

// creation is an object a reconciler created: the step, and how many
// crashes the schedule had had then.
type creation struct{ step, crashes int }

// noteWritten runs after each write that made a new version of k. A write
// that made k present where it was absent is a creation, whatever its verb
// (a create, a server-side apply, an update that creates): a reconciler's
// is remembered as its own, and checked against what the user deleted; an
// action's creation ends what its deletion said.
func (r *run) noteWritten(k objKey, h *history) {
	if r.cur == nil || h.versions[h.newest()] == nil || (h.newest() > 0 && h.versions[h.newest()-1] != nil) {
		return
	}
	if r.cur.action {
		delete(r.userDeleted, k)
		return
	}
	if uid := r.uidOf(k); uid != "" {
		r.created[uid] = creation{step: r.cur.step.Index, crashes: r.crashes}
	}
	by, ok := r.userDeleted[k]
	if !ok || r.stepForKind() != k.gvk.String() {
		return
	}
	r.fail(InvariantDeletedStaysDeleted, fmt.Sprintf("%s, which the user deleted (step %d), was created again by %s, a reconciler of its kind%s",
		k, by, r.request(), r.staleNote()))
}

// stepForKind is the For kind of the running step's reconciler ("" for an
// action or an in-flight write's delivery).
func (r *run) stepForKind() string {
	for i, rc := range r.ex.s.Reconcilers {
		if rc.Name == r.cur.step.Reconciler && i < len(r.ex.forKinds) {
			return r.ex.forKinds[i].String()
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
// deleted (parentGone), whatever the step read.
func (r *run) checkDelete(k objKey, uid types.UID, based int) {
	if r.cur == nil || uid == "" {
		return
	}
	if r.cur.action {
		r.userDeleted[k] = r.cur.step.Index
		if r.userGone == nil {
			r.userGone = map[types.UID]bool{}
		}
		r.userGone[uid] = true
		return
	}
	c, ok := r.created[uid]
	if !ok || r.parentGone(k, uid) {
		return
	}
	why := r.staleNote()
	if why == "" && r.crashes > c.crashes {
		why = fmt.Sprintf(", after %d crash(es) since", r.crashes-c.crashes)
	}
	if why == "" {
		return
	}
	seen := "without having read it"
	if based > 0 {
		seen = fmt.Sprintf("having seen v%d of it", based)
	}
	r.fail(InvariantOwnDelete, fmt.Sprintf("%s (uid %s) created by step %d was deleted by %s, %s%s",
		k, shortUID(uid), c.step, r.request(), seen, why))
}

// parentGone reports that the user asked for the delete of k (whose uid it
// was) by deleting its parent: an owner its owner references name (by UID,
// so a parent the user created again is not the one deleted) was deleted
// by a user action; or, when k names no owner, the step reconciles an
// object a user action deleted and no action created again (the cleanup
// of its finalizer).
func (r *run) parentGone(k objKey, uid types.UID) bool {
	var owners []types.UID
	if h := r.hist[k]; h != nil {
		for v := h.newest(); v >= 0; v-- {
			if h.versions[v] == nil {
				continue
			}
			u := unstructured.Unstructured{Object: h.versions[v]}
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
			if r.userGone[o] {
				return true
			}
		}
		return false
	}
	for d := range r.userDeleted {
		if d.String() == r.cur.step.Object {
			return true
		}
	}
	return false
}
