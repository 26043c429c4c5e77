package judge

import (
	"fmt"
	"reflect"
	"sort"
	"strings"

	"github.com/statuspatch/statuspatch/testenv/explore/internal/book"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
)

// Writer is the write that made the version "no lost write" judges, as
// the step being run made it.
type Writer struct {
	// Step is the step's number (0: outside a step); By its reconciler
	// ("" for a user action's, or outside a step).
	Step int
	By   string
	// Seen is the newest version of the object the step had seen (from 0;
	// -1: none).
	Seen int
	// Judged: the write was computed from version Based (from 1; 0:
	// none), by which it is judged (the explorer's writebase.go).
	Judged bool
	Based  int
	// SentBy, when not 0, is the step that sent the write, the old
	// leader's, delivered late; SentNth which of its writes in flight
	// (from 0).
	SentBy, SentNth int
	// Applied is the decision of a server-side apply (book.Restated), nil
	// for any other write.
	Applied *book.Decision
	// Made, when not nil, names the reconciler whose write made version
	// v (from 0) of the object ("": none, a user's action's; Checks
	// notes each): what By's reconciler set earlier under the name, and
	// what another's did (ownValue).
	Made func(v int) string
}

// Lost is a lost write the judged version made: the failure, whose
// message the explorer ends with the note naming the write, and whether
// the overwritten fields were the same reconciler's (only such a loss is
// judged again after the schedule): written by it, or holding what its
// own earlier write set under the name (ownValue).
type Lost struct {
	Failure
	SameWriter bool
	// AsSeen: every field lost holds, in the version the write replaced,
	// what it held in the version the writer saw (asSeen); where no
	// fresh schedule has the like of the write, it is not a loss.
	AsSeen bool
}

// LostWrite judges h's newest version, which replaced prev, as made by
// w: a write changes a field an earlier step set, and the write was
// computed from a version older than the one that write made. It notes
// who wrote each field the version changed (h.Owners), and returns the
// leaves it changed, and a Lost for each earlier writer whose fields it
// overwrote, oldest first; a loss only of fields that hold, in the
// version the write replaced, what they held in the version the writer
// had seen (asSeen, none set since by another reconciler) is AsSeen,
// judged again with the step's reads fresh like one over the writer's
// own (a stale read can miss another field the decision rests on:
// TestLostWriteAsSeenJudgedFresh); keys (nil: not known) are the map
// lists of h's kind, by which a loss of times only is found
// (book.TimeLikeOnly).
func LostWrite(h *book.History, prev map[string]any, w Writer, keys book.ListKeys) ([]book.Leaf, []Lost) {
	v := h.Newest()
	cur := h.Versions[v]
	based := w.Seen
	by := ""
	had := "had seen only"
	if w.Judged {
		// Judged by the version it was computed from (writebase.go).
		based = w.Based - 1
		if based < w.Seen {
			had = fmt.Sprintf("had read v%d but computed the write from", w.Seen+1)
		}
	}
	if w.SentBy > 0 {
		// Judged by what the old leader had seen when it sent it.
		nth := ""
		if w.SentNth > 0 {
			nth = fmt.Sprintf(" %d", w.SentNth+1)
		}
		by = fmt.Sprintf(" (the old leader's write%s sent by step %d, in flight until now)", nth, w.SentBy)
	}
	lost := map[book.Owner][]string{}
	// seen: the lost fields as the writer saw them (asSeen), a loss only
	// where the same step with its reads fresh writes otherwise.
	seen := map[book.Owner][]string{}
	fields := map[string][]string{}
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
		return nil, nil
	}
	if overwrite && book.UIDOfVersion(prev) != book.UIDOfVersion(cur) {
		h.Owners = map[string]book.Owner{}
		overwrite = false
	}
	leaves := book.ChangedLeaves(prev, cur)
	for _, l := range leaves {
		p := l.Dotted
		fields[p] = l.Fields
		if o, ok := h.Owners[p]; ok && overwrite && o.Step > 0 && o.Step != w.Step && o.Version > based &&
			!book.Restated(o, w.Applied, prev, cur, l.Fields) {
			if asSeen(h, based, prev, l.Fields) && !setByAnother(h, based, l.Fields, w.By, w.Made) {
				seen[o] = append(seen[o], p)
			} else {
				lost[o] = append(lost[o], p)
			}
		}
		h.Owners[p] = book.Owner{Version: v, Step: w.Step, By: w.By, Applied: w.Applied}
	}
	for o, paths := range seen {
		if _, ok := lost[o]; !ok && w.By != "" {
			lost[o] = paths
		}
	}
	var out []Lost
	for _, o := range sortedOwners(lost) {
		paths := lost[o]
		sort.Strings(paths)
		_, asSeen := seen[o]
		asSeen = asSeen && len(seen[o]) == len(paths)
		timeOnly, note := book.TimeLikeOnly(leaves, paths, prev, cur, keys), ""
		own := w.By != "" && o.By != w.By && !asSeen && ownValues(h, w.By, w.Made, prev, fields, paths)
		switch {
		case asSeen:
			note = " (values as the writer saw them)"
		case own:
			note = " (values " + w.By + "'s own earlier write set under the name)"
		}
		if timeOnly {
			note += " (the values differ only in time-like fields: " + strings.Join(paths, ", ") + ")"
		}
		msg := fmt.Sprintf("%s: %s written by step %d (v%d) overwritten by step %d%s (v%d), which %s v%d%s",
			h.Key, strings.Join(paths, ", "), o.Step, o.Version+1, w.Step, by, v+1, had, based+1, note)
		out = append(out, Lost{Failure: Failure{Object: h.Key.String(), Fields: paths, TimeOnly: timeOnly, Message: msg},
			SameWriter: w.By != "" && (o.By == w.By || own || asSeen), AsSeen: asSeen})
	}
	return leaves, out
}

// asSeen reports that the leaf at fields holds in prev, the version a
// write replaced, what it held in the version the writer had seen (based,
// from 0): present in both with equal values, or absent from both. The
// writes made after that version left the leaf as the writer saw it (a
// user's replace re-creating the object from that version, a value set
// back), so the write overwrites no value it had not seen; but it may
// have missed another field its decision rests on, so the loss is
// judged again with the step's reads fresh (lostsuspect.go). Decided
// from the server's recorded versions only; a writer that saw no
// version, or saw the object absent, is not this case.
func asSeen(h *book.History, based int, prev map[string]any, fields []string) bool {
	if based < 0 || based >= len(h.Versions) || h.Versions[based] == nil {
		return false
	}
	was, wasOK, err1 := unstructured.NestedFieldNoCopy(h.Versions[based], fields...)
	now, nowOK, err2 := unstructured.NestedFieldNoCopy(prev, fields...)
	if err1 != nil || err2 != nil || wasOK != nowOK {
		return false
	}
	return reflect.DeepEqual(was, now)
}

// ownValues reports that each of paths (dotted; fields their leaves)
// holds in prev, the version a write replaced, a value its writer's
// reconciler (by; made names the reconciler of each version) set
// earlier under the name, on this object or an earlier one: the writes
// since restated that reconciler's decision (a user's replace
// re-creating the object from a version the reconciler wrote) and added
// none of their own to those fields. Such a loss is the reconciler's
// over its own write, judged again with the step's reads fresh
// (lostsuspect.go): taken back only if the fresh write sets the same
// values, as it does where the reconciler's steady state owns the
// fields; one the fresh write does not make (a value set only on
// create) stands. Decided from the server's recorded versions and who
// made them only.
func ownValues(h *book.History, by string, made func(int) string, prev map[string]any, fields map[string][]string, paths []string) bool {
	if made == nil {
		return false
	}
	for _, p := range paths {
		if ownValue(h, by, made, prev, fields[p]) < 0 {
			return false
		}
	}
	return true
}

// ownValue is the newest version (from 0) before h's newest that a
// write of reconciler by made, setting the leaf at fields to what prev
// holds there (present and equal, and not held already by the version
// before it), where every version since, up to prev, holds that value
// too or is the object's absence (a replace re-creating it), and none
// of them set it by another reconciler's write; -1 for none. A value
// changed since and set back (a user's size=0, then 5, then 0 again on
// purpose) is the one who set it back's (TestLostWriteOverAValueSetBack);
// one another reconciler's create set is its decision, whatever it
// equals (TestLostWriteOverAnotherReconcilersCreate).
func ownValue(h *book.History, by string, made func(int) string, prev map[string]any, fields []string) int {
	now, ok, err := unstructured.NestedFieldNoCopy(prev, fields...)
	if !ok || err != nil {
		return -1
	}
	for i := h.Newest() - 1; i >= 0; i-- {
		if h.Versions[i] == nil {
			continue
		}
		set, ok, err := unstructured.NestedFieldNoCopy(h.Versions[i], fields...)
		if !ok || err != nil || !reflect.DeepEqual(set, now) {
			return -1 // changed since: whatever by set before is not what prev holds
		}
		if i > 0 && h.Versions[i-1] != nil {
			if before, ok, _ := unstructured.NestedFieldNoCopy(h.Versions[i-1], fields...); ok && reflect.DeepEqual(before, set) {
				continue // held already: not what this write set
			}
		}
		switch m := made(i); m {
		case by:
			return i
		case "":
		default:
			return -1 // set by another reconciler's write
		}
	}
	return -1
}

// setByAnother reports that a version after from (from 0), up to the
// one h's newest write replaced, set the leaf at fields by the write of
// another reconciler than by (made names each version's; nil: not
// known): that reconciler's decision, whatever value it equals, neither
// as the writer saw it (asSeen) nor its own (ownValue): another
// reconciler re-creating the object with the value the writer saw on
// the old one (TestLostWriteOverAnotherReconcilersCreate).
func setByAnother(h *book.History, from int, fields []string, by string, made func(int) string) bool {
	if made == nil {
		return false
	}
	for i := max(from+1, 1); i < h.Newest(); i++ {
		if m := made(i); h.Versions[i] == nil || m == "" || m == by {
			continue
		}
		set, ok, _ := unstructured.NestedFieldNoCopy(h.Versions[i], fields...)
		if !ok {
			continue
		}
		if before, held, _ := unstructured.NestedFieldNoCopy(h.Versions[i-1], fields...); !held || !reflect.DeepEqual(before, set) {
			return true
		}
	}
	return false
}

func sortedOwners(m map[book.Owner][]string) []book.Owner {
	out := make([]book.Owner, 0, len(m))
	for o := range m {
		out = append(out, o)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Version < out[j].Version })
	return out
}

// FreshDifference says how fresh, the version the fresh schedule's
// corresponding write made, differs from cur, the version the suspect
// write made, in each of leaves, which that write changed
// (book.CompareAnyOrder: a map list by its keys, keys the schema's, nil
// when not known; an atomic list holding the same items in another
// order, OrderOnly); a fresh write not made differs (Other).
func FreshDifference(leaves []book.Leaf, cur, fresh map[string]any, keys book.ListKeys) book.Difference {
	if fresh == nil {
		return book.Other
	}
	d := book.Same
	for _, l := range leaves {
		a, _, _ := unstructured.NestedFieldNoCopy(cur, l.Fields...)
		b, _, _ := unstructured.NestedFieldNoCopy(fresh, l.Fields...)
		d = max(d, book.CompareAnyOrder(l.Fields, a, b, keys))
	}
	return d
}
