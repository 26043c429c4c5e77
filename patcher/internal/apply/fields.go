package apply

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"strings"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/structured-merge-diff/v6/fieldpath"
)

// The fields of an apply (docs/apply.md). A server-side apply sets the
// fields it holds and, for its field manager, removes the fields the
// manager owned and no longer holds. So the apply of a status change holds
// exactly: every field this manager owns by Apply on the status
// subresource (or the server removes it), and every field changed since
// the base (the change), each with its in-memory value. Nothing else:
// applied with forced ownership, any other field would be taken from its
// owner. Objects are granular (the CRD default) unless some manager owns
// one whole (an atomic struct or map); lists are atomic unless keyed
// (WithListMapKeys, and every []metav1.Condition by "type"), whose items
// are owned one by one and go in whole.

// Owners are the field sets of the object's managers, decoded from
// metadata.managedFields with structured-merge-diff's own types.
type Owners struct {
	Mine   *fieldpath.Set // this manager's Apply entry on the status subresource
	Others []namedSet     // every other entry (our own Update entry included)
}

type namedSet struct {
	name string // "manager (Operation, subresource)"
	set  *fieldpath.Set
}

// OwnersOf decodes managedFields, with owner as this manager.
func OwnersOf(entries []metav1.ManagedFieldsEntry, owner string) (Owners, error) {
	own := Owners{Mine: fieldpath.NewSet()}
	for _, e := range entries {
		set := fieldpath.NewSet()
		if e.FieldsV1 != nil {
			if err := set.FromJSON(bytes.NewReader(e.FieldsV1.Raw)); err != nil {
				return own, fmt.Errorf("decode metadata.managedFields of manager %q: %w", e.Manager, err)
			}
		}
		if e.Manager == owner && e.Operation == metav1.ManagedFieldsOperationApply && e.Subresource == "status" {
			own.Mine = own.Mine.Union(set)
			continue
		}
		name := e.Manager + " (" + string(e.Operation)
		if e.Subresource != "" {
			name += ", " + e.Subresource
		}
		own.Others = append(own.Others, namedSet{name: name + ")", set: set})
	}
	return own, nil
}

// at returns the part of s under the path p and whether p itself is a
// member of s.
func at(s *fieldpath.Set, p fieldpath.Path) (sub *fieldpath.Set, member bool) {
	for i, pe := range p {
		if i == len(p)-1 {
			member = s.Members.Has(pe)
		}
		s = s.WithPrefix(pe)
	}
	return s, member
}

// owns reports whether s holds p or anything under it.
func owns(s *fieldpath.Set, p fieldpath.Path) bool {
	sub, member := at(s, p)
	return member || !sub.Empty()
}

// child is p extended by pe, never sharing p's backing array.
func child(p fieldpath.Path, pe fieldpath.PathElement) fieldpath.Path {
	return append(slices.Clip(p), pe)
}

func fieldElement(name string) fieldpath.PathElement {
	return fieldpath.PathElement{FieldName: &name}
}

// Fields builds the status of an apply from the in-memory status and
// the base's, both as decoded JSON. Own, Keys and SetLists are its input;
// Blocked, Unowned, Errs and Dups what it found, for the caller to judge.
type Fields struct {
	Own      Owners
	Keys     map[string][]string // list-map keys by dotted JSON path ("status.conditions")
	SetLists map[string]bool     // +listType=set lists by dotted JSON path (sets.go)
	Blocked  []string            // removed fields an apply cannot remove, with their owners
	Unowned  []fieldpath.Path    // removed fields no manager owns: a server default, say
	Errs     []string            // lists whose items cannot be keyed
	Dups     []DupItem           // keyed items sharing a key, which the server refuses
}

// DupItem is a keyed list item whose key another item has too: the list's
// and the item's dotted paths.
type DupItem struct{ List, Item string }

// Status returns the status to apply (decoded JSON) for the in-memory
// status cur over the base's status base.
func (b *Fields) Status(cur, base map[string]any) map[string]any {
	return b.object(statusPath(), "status", cur, base)
}

// FieldSet is the field set the server records for applying the status
// (decoded JSON), for the no-op check of ApplyStatus.
func (b *Fields) FieldSet(status any) *fieldpath.Set {
	s := fieldpath.NewSet()
	b.fieldSetOf(statusPath(), "status", status, s)
	return s
}

func statusPath() fieldpath.Path { return fieldpath.Path{fieldElement("status")} }

// atomic reports whether some manager owns the object at p whole: a member
// with nothing owned under it (an atomic struct or map, or an empty one),
// and no manager owns a field under it. The server never splits an atomic
// value's ownership, and a granular map or struct whose fields another
// manager took over leaves its maker an entry of the member alone: a
// field owned under p proves p granular.
func (b *Fields) atomic(p fieldpath.Path) bool {
	whole := false
	for _, s := range b.sets() {
		sub, member := at(s, p)
		if !sub.Empty() {
			return false
		}
		whole = whole || member
	}
	return whole
}

func (b *Fields) sets() []*fieldpath.Set {
	out := []*fieldpath.Set{b.Own.Mine}
	for _, o := range b.Own.Others {
		out = append(out, o.set)
	}
	return out
}

// object returns the members of cur to apply at p.
func (b *Fields) object(p fieldpath.Path, dotted string, cur, base map[string]any) map[string]any {
	out := map[string]any{}
	for k, cv := range cur {
		if cv == nil {
			continue // null is "unset" in an apply; the server refuses it for most types
		}
		bv, inBase := base[k]
		if v, ok := b.value(child(p, fieldElement(k)), dotted+"."+k, cv, bv, inBase && bv != nil); ok {
			out[k] = v
		}
	}
	for k, bv := range base {
		if bv == nil || cur[k] != nil {
			continue
		}
		b.removed(child(p, fieldElement(k)), dotted+"."+k, bv)
	}
	return out
}

// value returns cv to apply at p when it changed or this manager owns it.
func (b *Fields) value(p fieldpath.Path, dotted string, cv, bv any, inBase bool) (any, bool) {
	changed := !inBase || !reflect.DeepEqual(cv, bv)
	mine := owns(b.Own.Mine, p)
	if !changed && !mine {
		return nil, false
	}
	switch c := cv.(type) {
	case map[string]any:
		if len(c) == 0 || b.atomic(p) {
			return c, true
		}
		bm, _ := bv.(map[string]any)
		out := b.object(p, dotted, c, bm)
		return out, len(out) > 0
	case []any:
		bl, _ := bv.([]any)
		if b.SetLists[dotted] {
			out := b.set(p, dotted, c, bl)
			return out, len(out) > 0
		}
		keys, keyed := b.Keys[dotted]
		if !keyed {
			return c, true // atomic: whole
		}
		out := b.keyed(p, dotted, keys, c, bl)
		return out, len(out) > 0
	}
	return cv, true
}

// keyed returns the items of a keyed list to apply: every new, changed or
// owned item, whole.
func (b *Fields) keyed(p fieldpath.Path, dotted string, keys []string, cur, base []any) []any {
	byKey := map[string]any{}
	for _, it := range base {
		if pe, err := ItemKey(it, keys); err == nil {
			byKey[pe.String()] = it
		}
	}
	out := []any{}
	seen := map[string]bool{}
	for i, it := range cur {
		pe, err := ItemKey(it, keys)
		if err != nil {
			b.Errs = append(b.Errs, fmt.Sprintf("%s[%d]: %v", dotted, i, err))
			continue
		}
		if seen[pe.String()] {
			b.Dups = append(b.Dups, DupItem{List: dotted, Item: dotted + pe.String()})
			continue
		}
		seen[pe.String()] = true
		bi, inBase := byKey[pe.String()]
		if !inBase || !reflect.DeepEqual(it, bi) || owns(b.Own.Mine, child(p, pe)) {
			out = append(out, it)
		}
	}
	for i, it := range base {
		pe, err := ItemKey(it, keys)
		if err != nil {
			b.Errs = append(b.Errs, fmt.Sprintf("%s[%d] as read: %v", dotted, i, err))
			continue
		}
		if !seen[pe.String()] {
			b.removedUnit(child(p, pe), dotted+pe.String())
		}
	}
	return out
}

// removed checks a field of the base the caller removed: an apply removes
// only what this manager alone owns, so each part of it (leaves, keyed
// items, atomic values) must be ours alone.
func (b *Fields) removed(p fieldpath.Path, dotted string, v any) {
	switch x := v.(type) {
	case map[string]any:
		if len(x) > 0 && !b.atomic(p) {
			for _, o := range b.Own.Others {
				if _, member := at(o.set, p); member {
					b.Blocked = append(b.Blocked, fmt.Sprintf("%s (owned by %s)", dotted, o.name))
				}
			}
			for k, cv := range x {
				if cv != nil {
					b.removed(child(p, fieldElement(k)), dotted+"."+k, cv)
				}
			}
			return
		}
	case []any:
		if b.SetLists[dotted] {
			b.removedSet(p, dotted, x)
			return
		}
		if keys, ok := b.Keys[dotted]; ok && len(x) > 0 {
			for i, it := range x {
				pe, err := ItemKey(it, keys)
				if err != nil {
					// Skipped, the removal would be lost unseen.
					b.Errs = append(b.Errs, fmt.Sprintf("%s[%d] as read: %v", dotted, i, err))
					continue
				}
				b.removedUnit(child(p, pe), dotted+pe.String())
			}
			return
		}
	}
	b.removedUnit(p, dotted)
}

// removedUnit records p as blocked unless this manager alone owns it.
func (b *Fields) removedUnit(p fieldpath.Path, dotted string) {
	var owners []string
	for _, o := range b.Own.Others {
		if owns(o.set, p) {
			owners = append(owners, o.name)
		}
	}
	if len(owners) == 0 && owns(b.Own.Mine, p) {
		return // the apply leaves it out and the server removes it
	}
	if len(owners) == 0 {
		b.Unowned = append(b.Unowned, p) // sent; kept by the server, it is a divergence
		return
	}
	b.Blocked = append(b.Blocked, fmt.Sprintf("%s (owned by %s)", dotted, strings.Join(owners, ", ")))
}

// ItemKey is the path element of a keyed list item, parsed by
// structured-merge-diff from the item's key fields, as the server does.
func ItemKey(item any, keys []string) (fieldpath.PathElement, error) {
	m, ok := item.(map[string]any)
	if !ok {
		return fieldpath.PathElement{}, fmt.Errorf("item is not an object")
	}
	key := make(map[string]any, len(keys))
	for _, k := range keys {
		v, ok := m[k]
		if !ok || v == nil {
			return fieldpath.PathElement{}, fmt.Errorf("item has no key field %q", k)
		}
		key[k] = v
	}
	j, err := json.Marshal(key)
	if err != nil {
		return fieldpath.PathElement{}, err
	}
	return fieldpath.DeserializePathElement("k:" + string(j))
}

// fieldSetOf is the field set the server records for applying v at p, for
// the no-op check of ApplyStatus.
func (b *Fields) fieldSetOf(p fieldpath.Path, dotted string, v any, s *fieldpath.Set) {
	switch x := v.(type) {
	case map[string]any:
		if len(x) == 0 || (len(p) > 1 && b.atomic(p)) {
			s.Insert(p)
			return
		}
		for k, cv := range x {
			if cv != nil {
				b.fieldSetOf(child(p, fieldElement(k)), dotted+"."+k, cv, s)
			}
		}
		return
	case []any:
		if b.SetLists[dotted] {
			for _, it := range x {
				if pe, err := valueElement(it); err == nil {
					s.Insert(child(p, pe))
				}
			}
			return
		}
		if keys, ok := b.Keys[dotted]; ok {
			seen := map[string]bool{}
			for _, it := range x {
				pe, err := ItemKey(it, keys)
				if err != nil {
					b.Errs = append(b.Errs, fmt.Sprintf("%s: %v", dotted, err))
					continue
				}
				if seen[pe.String()] {
					b.Dups = append(b.Dups, DupItem{List: dotted, Item: dotted + pe.String()})
				}
				seen[pe.String()] = true
				ip := child(p, pe)
				s.Insert(ip)
				for k, cv := range it.(map[string]any) {
					if cv != nil {
						b.fieldSetOf(child(ip, fieldElement(k)), dotted+"."+k, cv, s)
					}
				}
			}
			return
		}
	}
	s.Insert(p)
}
