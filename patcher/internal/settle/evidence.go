package settle

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/big"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/structured-merge-diff/v6/fieldpath"
)

// ancientChanges is the managedFields entry into which the server merges
// the oldest Update entries once an object has more than ten
// (k8s.io/apiserver's fieldmanager capManagersManager). Its fields may be
// any merged writer's, this one's included.
const ancientChanges = "ancient-changes"

// beforeFirstApply is the managedFields entry the server makes, at an
// object's first apply, of the fields no entry owned.
const beforeFirstApply = "before-first-apply"

// evidence is what the managedFields of the base and of a later version
// say about who wrote in between: mine names this writer's entry when it
// was stamped, other another entry that was; thin says why the entries
// cannot tell at all.
type evidence struct {
	mine, other, thin string
	// thinBase: thin because the base lacks the managedFields the server
	// keeps.
	thinBase bool
}

// evidenceOf reads the managedFields of w's base and of next.
func evidenceOf(w Write, next Version) evidence {
	switch {
	case w.Writer.Manager == "":
		return evidence{thin: "this writer's field manager is not known (no field owner, and the server did not say which manager it names " +
			"this client's writes after), so managedFields cannot tell its write from another's: give the patcher a field owner (WithFieldOwner)"}
	case len(w.Base.ManagedFields) == 0 && len(next.ManagedFields) > 0:
		return evidence{thinBase: true, thin: "the base holds no managedFields although the server keeps them (read through a cache that transforms its objects, " +
			"such as cache.TransformStripManagedFields), so nothing shows which entry the next write stamped"}
	}
	var ev evidence
	ancient := false
	for i := range next.ManagedFields {
		n := &next.ManagedFields[i]
		wr := writerOf(n)
		if !stamped(entry(w.Base.ManagedFields, wr), n) {
			continue
		}
		name := fmt.Sprintf("%s (%s, subresource %q, %s)", n.Manager, n.Operation, n.Subresource, n.APIVersion)
		switch {
		case wr == w.Writer.id():
			ev.mine = name
		case n.Manager == ancientChanges:
			ancient = true // the server's own merge: any writer's fields, this one's too
		case ev.other == "":
			ev.other = name
		}
	}
	if ancient {
		if ev.mine == "" && ev.other == "" {
			ev.thin = "the server merged older managedFields entries into " + ancientChanges + " in the first write after the base " +
				"(an object with more than ten Update managers), which may have taken this writer's entry"
		}
		return ev
	}
	if ev.other == "" {
		if lost := lostHeld(entry(w.Base.ManagedFields, w.Writer), entry(next.ManagedFields, w.Writer), othersOwn(w), next.Object, w.Removals); lost != "" {
			ev.other = "another manager, which took " + lost + " from this writer"
		}
	}
	if ev.mine == "" && ev.other == "" && w.Stamps {
		ev.mine = onlyNewest(w, next)
	}
	return ev
}

// onlyNewest names this writer's entry when no entry was stamped and it
// alone holds the newest second among the entries of its subresource
// (First lands a write only when the version differs from the base in the
// status alone, which only a status write makes): the first write after the base stamped
// its writer's entry with the second it was stored, no earlier than any
// entry's, and left it unchanged only because that entry held that second
// already. A write that sets values keeps an entry (it owns them), so the
// writer is one of next's entries: the one at the newest second.
func onlyNewest(w Write, next Version) string {
	me := entry(next.ManagedFields, w.Writer)
	if me == nil || me.Time == nil {
		return ""
	}
	for i := range next.ManagedFields {
		n := &next.ManagedFields[i]
		if n == me || n.Subresource != w.Writer.Subresource {
			// A write through another subresource (the object's main
			// resource: its creation, spec and metadata) cannot have made
			// a version that differs from the base only in its status.
			continue
		}
		if n.Time == nil || !n.Time.Before(me.Time) {
			return ""
		}
	}
	return fmt.Sprintf("%s (%s, subresource %q), unchanged but the only entry at the newest second", me.Manager, me.Operation, me.Subresource)
}

// entry is w's entry in mfs: the server keeps an Update's entries per
// apiVersion, so an entry of another apiVersion is another entry (paired
// with it, either looks stamped).
func entry(mfs []metav1.ManagedFieldsEntry, w Writer) *metav1.ManagedFieldsEntry {
	id := w.id()
	for i := range mfs {
		if writerOf(&mfs[i]) == id {
			return &mfs[i]
		}
	}
	return nil
}

// stamped reports whether next, an entry of a later version, was written
// since base, its entry in the base (nil: none): new, another time (a
// later one, or an earlier one from a server whose clock is behind), or a
// field gained.
func stamped(base, next *metav1.ManagedFieldsEntry) bool {
	if base == nil {
		return true
	}
	if next.Time != nil && (base.Time == nil || !next.Time.Equal(base.Time)) {
		return true
	}
	bs, ns := fieldSet(base), fieldSet(next)
	return bs != nil && ns != nil && !ns.Difference(bs).Empty()
}

// lostHeld names a field the base's entry owned that next's entry does not,
// while the object still holds it: another manager took it (unless one
// already owned it at the base: an apply that leaves out a co-owned field
// lets it go, and the server keeps it for the other; or this write removes
// it, removals: its own write let it go, and a default of the server's, as
// a storage version's, puts it back unowned).
func lostHeld(base, next *metav1.ManagedFieldsEntry, others *fieldpath.Set, obj map[string]any, removals []fieldpath.Path) string {
	if base == nil {
		return ""
	}
	bs := fieldSet(base)
	if bs == nil {
		return ""
	}
	ns := fieldSet(next)
	lost := bs.Leaves()
	if ns != nil {
		lost = lost.Difference(ns)
	}
	found := ""
	lost.Iterate(func(p fieldpath.Path) {
		if _, ok := lookup(obj, p); ok && found == "" && !others.Has(p) && !removedBy(removals, p) {
			found = p.String()
		}
	})
	return found
}

// removedBy reports whether p is one of removals or lies under one.
func removedBy(removals []fieldpath.Path, p fieldpath.Path) bool {
	for _, r := range removals {
		if len(r) <= len(p) && r.Equals(p[:len(r)]) {
			return true
		}
	}
	return false
}

func fieldSet(e *metav1.ManagedFieldsEntry) *fieldpath.Set {
	if e == nil || e.FieldsV1 == nil {
		return nil
	}
	s := &fieldpath.Set{}
	if err := s.FromJSON(bytes.NewReader(e.FieldsV1.Raw)); err != nil {
		return nil
	}
	return s
}

// disagrees names a field this write sets to a scalar, or to a list of
// scalars, that next holds with another scalar or other members: the
// server prunes and defaults (absent fields), it never rewrites a scalar
// it keeps (a mutating webhook that does is the protocol's documented
// limit). Objects and nulls prove nothing: a default or a pruned member
// changes them.
func (w Write) disagrees(next Version) string {
	for _, l := range w.Sets {
		if l.Unchecked {
			continue
		}
		got, ok := lookup(next.Object, l.Path)
		if !ok {
			continue
		}
		if scalar(l.Value) && scalar(got) && !sameValue(l.Value, got) {
			return l.Path.String()
		}
		wl, wok := l.Value.([]any)
		gl, gok := got.([]any)
		if wok && gok && scalarList(wl) && scalarList(gl) && !sameMembers(wl, gl) {
			return l.Path.String()
		}
	}
	return ""
}

func scalarList(l []any) bool {
	for _, v := range l {
		if !scalar(v) {
			return false
		}
	}
	return true
}

func scalar(v any) bool {
	switch v.(type) {
	case string, bool, json.Number, float64, int64:
		return true
	}
	return false
}

// sameValue compares two decoded JSON scalars, numbers by value (1 and
// 1.0 are one number).
func sameValue(a, b any) bool {
	an, aok := a.(json.Number)
	bn, bok := b.(json.Number)
	if aok && bok {
		x, xok := new(big.Rat).SetString(an.String())
		y, yok := new(big.Rat).SetString(bn.String())
		if xok && yok {
			return x.Cmp(y) == 0
		}
	}
	return a == b
}
