package patcher

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

// fieldOwners are the field sets of the object's managers, decoded from
// metadata.managedFields with structured-merge-diff's own types.
type fieldOwners struct {
	mine   *fieldpath.Set // this manager's Apply entry on the status subresource
	others []namedSet     // every other entry (our own Update entry included)
}

type namedSet struct {
	name string // "manager (Operation, subresource)"
	set  *fieldpath.Set
}

// ownersOf decodes managedFields, with owner as this manager.
func ownersOf(entries []metav1.ManagedFieldsEntry, owner string) (fieldOwners, error) {
	own := fieldOwners{mine: fieldpath.NewSet()}
	for _, e := range entries {
		set := fieldpath.NewSet()
		if e.FieldsV1 != nil {
			if err := set.FromJSON(bytes.NewReader(e.FieldsV1.Raw)); err != nil {
				return own, fmt.Errorf("decode metadata.managedFields of manager %q: %w", e.Manager, err)
			}
		}
		if e.Manager == owner && e.Operation == metav1.ManagedFieldsOperationApply && e.Subresource == "status" {
			own.mine = own.mine.Union(set)
			continue
		}
		name := e.Manager + " (" + string(e.Operation)
		if e.Subresource != "" {
			name += ", " + e.Subresource
		}
		own.others = append(own.others, namedSet{name: name + ")", set: set})
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

// applyFields builds the status of an apply from the in-memory status and
// the base's, both as decoded JSON.
type applyFields struct {
	own      fieldOwners
	keys     map[string][]string // list-map keys by dotted JSON path ("status.conditions")
	setLists map[string]bool     // +listType=set lists by dotted JSON path (applyset.go)
	blocked  []string            // removed fields an apply cannot remove, with their owners
	unowned  []fieldpath.Path    // removed fields no manager owns: a server default, say (apply.go)
	errs     []string            // lists whose items cannot be keyed
	dups     []dupItem           // keyed items sharing a key, which the server refuses
}

// dupItem is a keyed list item whose key another item has too.
type dupItem struct{ list, item string }

// atomic reports whether some manager owns the object at p whole: a member
// with nothing owned under it (an atomic struct or map, or an empty one).
func (b *applyFields) atomic(p fieldpath.Path) bool {
	for _, s := range b.sets() {
		if sub, member := at(s, p); member && sub.Empty() {
			return true
		}
	}
	return false
}

func (b *applyFields) sets() []*fieldpath.Set {
	out := []*fieldpath.Set{b.own.mine}
	for _, o := range b.own.others {
		out = append(out, o.set)
	}
	return out
}

// object returns the members of cur to apply at p.
func (b *applyFields) object(p fieldpath.Path, dotted string, cur, base map[string]any) map[string]any {
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
func (b *applyFields) value(p fieldpath.Path, dotted string, cv, bv any, inBase bool) (any, bool) {
	changed := !inBase || !reflect.DeepEqual(cv, bv)
	mine := owns(b.own.mine, p)
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
		if b.setLists[dotted] {
			out := b.set(p, dotted, c, bl)
			return out, len(out) > 0
		}
		keys, keyed := b.keys[dotted]
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
func (b *applyFields) keyed(p fieldpath.Path, dotted string, keys []string, cur, base []any) []any {
	byKey := map[string]any{}
	for _, it := range base {
		if pe, err := itemKey(it, keys); err == nil {
			byKey[pe.String()] = it
		}
	}
	out := []any{}
	seen := map[string]bool{}
	for i, it := range cur {
		pe, err := itemKey(it, keys)
		if err != nil {
			b.errs = append(b.errs, fmt.Sprintf("%s[%d]: %v", dotted, i, err))
			continue
		}
		if seen[pe.String()] {
			b.dups = append(b.dups, dupItem{dotted, dotted + pe.String()})
			continue
		}
		seen[pe.String()] = true
		bi, inBase := byKey[pe.String()]
		if !inBase || !reflect.DeepEqual(it, bi) || owns(b.own.mine, child(p, pe)) {
			out = append(out, it)
		}
	}
	for i, it := range base {
		pe, err := itemKey(it, keys)
		if err != nil {
			b.errs = append(b.errs, fmt.Sprintf("%s[%d] as read: %v", dotted, i, err))
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
func (b *applyFields) removed(p fieldpath.Path, dotted string, v any) {
	switch x := v.(type) {
	case map[string]any:
		if len(x) > 0 && !b.atomic(p) {
			for _, o := range b.own.others {
				if _, member := at(o.set, p); member {
					b.blocked = append(b.blocked, fmt.Sprintf("%s (owned by %s)", dotted, o.name))
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
		if b.setLists[dotted] {
			b.removedSet(p, dotted, x)
			return
		}
		if keys, ok := b.keys[dotted]; ok && len(x) > 0 {
			for i, it := range x {
				pe, err := itemKey(it, keys)
				if err != nil {
					// Skipped, the removal would be lost unseen.
					b.errs = append(b.errs, fmt.Sprintf("%s[%d] as read: %v", dotted, i, err))
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
func (b *applyFields) removedUnit(p fieldpath.Path, dotted string) {
	var owners []string
	for _, o := range b.own.others {
		if owns(o.set, p) {
			owners = append(owners, o.name)
		}
	}
	if len(owners) == 0 && owns(b.own.mine, p) {
		return // the apply leaves it out and the server removes it
	}
	if len(owners) == 0 {
		b.unowned = append(b.unowned, p) // sent; kept by the server, it is a divergence
		return
	}
	b.blocked = append(b.blocked, fmt.Sprintf("%s (owned by %s)", dotted, strings.Join(owners, ", ")))
}

// itemKey is the path element of a keyed list item, parsed by
// structured-merge-diff from the item's key fields, as the server does.
func itemKey(item any, keys []string) (fieldpath.PathElement, error) {
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
func (b *applyFields) fieldSetOf(p fieldpath.Path, dotted string, v any, s *fieldpath.Set) {
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
		if b.setLists[dotted] {
			for _, it := range x {
				if pe, err := valueElement(it); err == nil {
					s.Insert(child(p, pe))
				}
			}
			return
		}
		if keys, ok := b.keys[dotted]; ok {
			seen := map[string]bool{}
			for _, it := range x {
				pe, err := itemKey(it, keys)
				if err != nil {
					b.errs = append(b.errs, fmt.Sprintf("%s: %v", dotted, err))
					continue
				}
				if seen[pe.String()] {
					b.dups = append(b.dups, dupItem{dotted, dotted + pe.String()})
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

// conditionLists finds every []metav1.Condition in the status type t, by
// dotted JSON path (list levels not marked), keyed by "type" as
// metav1.Condition's +listMapKey says.
func conditionLists(t reflect.Type, dotted string, out map[string][]string, depth int) {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if depth > 8 {
		return
	}
	switch {
	case t == conditionsType:
		if _, ok := out[dotted]; !ok {
			out[dotted] = []string{"type"}
		}
	case t.Kind() == reflect.Slice || t.Kind() == reflect.Array:
		conditionLists(t.Elem(), dotted, out, depth+1)
	case t.Kind() == reflect.Struct:
		for i := range t.NumField() {
			f := t.Field(i)
			name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
			switch {
			case name == "-" || (!f.IsExported() && !f.Anonymous):
			case f.Anonymous && name == "":
				conditionLists(f.Type, dotted, out, depth+1)
			default:
				conditionLists(f.Type, dotted+"."+jsonName(f), out, depth+1)
			}
		}
	}
}
