package patcher

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/structured-merge-diff/v6/fieldpath"
)

// +listType=set lists in an apply (docs/apply.md). The server records a
// set's values one by one ("v:" elements in managedFields), so a value
// belongs to every manager that applied it: the apply holds only the new
// values and the ones this manager owns, and a removed value another
// manager owns is ErrApplyCannotRemove, as a removed field is. The Go type
// does not say which lists are sets; managedFields do: a list whose values
// some manager owns one by one is a set. A set no manager owns a value of
// (an empty one) is applied whole, which for a set is the same.

// setLists are the dotted JSON paths (list levels not marked) of the lists
// whose values managedFields record one by one.
func setLists(entries []metav1.ManagedFieldsEntry) map[string]bool {
	out := map[string]bool{}
	for _, e := range entries {
		if e.FieldsV1 == nil {
			continue
		}
		s := fieldpath.NewSet()
		if err := s.FromJSON(bytes.NewReader(e.FieldsV1.Raw)); err != nil {
			continue // ownersOf reports it
		}
		addSetLists(s, out)
	}
	return out
}

// addSetLists adds the set lists of s to out.
func addSetLists(s *fieldpath.Set, out map[string]bool) {
	s.Iterate(func(p fieldpath.Path) {
		var parts []string
		for _, pe := range p {
			switch {
			case pe.FieldName != nil:
				parts = append(parts, *pe.FieldName)
			case pe.Value != nil:
				out[strings.Join(parts, ".")] = true
			}
		}
	})
}

// valueElement is the path element of a set list's value v, parsed by
// structured-merge-diff as the server does.
func valueElement(v any) (fieldpath.PathElement, error) {
	j, err := json.Marshal(v)
	if err != nil {
		return fieldpath.PathElement{}, err
	}
	return fieldpath.DeserializePathElement("v:" + string(j))
}

// set returns the values of a set list to apply: the new ones and the
// ones this manager owns. Removed values are checked as removed fields.
func (b *applyFields) set(p fieldpath.Path, dotted string, cur, base []any) []any {
	inBase := map[string]bool{}
	for _, v := range base {
		if pe, err := valueElement(v); err == nil {
			inBase[pe.String()] = true
		}
	}
	out := []any{}
	seen := map[string]bool{}
	for _, v := range cur {
		pe, err := valueElement(v)
		if err != nil {
			b.errs = append(b.errs, fmt.Sprintf("%s: %v", dotted, err))
			continue
		}
		if seen[pe.String()] {
			b.dups = append(b.dups, dupItem{dotted, dotted + "[" + pe.String() + "]"})
			continue
		}
		seen[pe.String()] = true
		if !inBase[pe.String()] || owns(b.own.mine, child(p, pe)) {
			out = append(out, v)
		}
	}
	for _, v := range base {
		if pe, err := valueElement(v); err == nil && !seen[pe.String()] {
			b.removedUnit(child(p, pe), dotted+"["+pe.String()+"]")
		}
	}
	return out
}

// removedSet checks the values of a removed set list.
func (b *applyFields) removedSet(p fieldpath.Path, dotted string, values []any) {
	for _, v := range values {
		if pe, err := valueElement(v); err == nil {
			b.removedUnit(child(p, pe), dotted+"["+pe.String()+"]")
		}
	}
}

// keyedError is the refusal of list items the server would refuse: items
// without their keys, or two items with one key or value (two conditions
// of one type are ErrInvalidCondition). what prefixes the message.
func (p *Patcher[T]) keyedError(b *applyFields, what string) error {
	var conds, others []string
	for _, d := range b.dups {
		if p.conditionPaths[d.list] {
			conds = append(conds, d.item+": Duplicate value: two conditions of one type")
		} else {
			others = append(others, d.item)
		}
	}
	switch {
	case len(conds) > 0:
		return &InvalidConditionError{Object: p.id(), Problems: conds}
	case len(others) > 0:
		return fmt.Errorf("statuspatch: %s: %slist items with the same key, which the server refuses: %s: %w", p.id(), what, strings.Join(others, ", "), ErrInvalidInput)
	case len(b.errs) > 0:
		return fmt.Errorf("statuspatch: %s: %skeyed list items without their keys: %s: %w", p.id(), what, strings.Join(b.errs, "; "), ErrInvalidInput)
	}
	return nil
}
