package apply

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

// SetLists are the dotted JSON paths (list levels not marked) of the lists
// whose values managedFields record one by one.
func SetLists(entries []metav1.ManagedFieldsEntry) map[string]bool {
	out := map[string]bool{}
	for _, e := range entries {
		if e.FieldsV1 == nil {
			continue
		}
		s := fieldpath.NewSet()
		if err := s.FromJSON(bytes.NewReader(e.FieldsV1.Raw)); err != nil {
			continue // OwnersOf reports it
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
func (b *Fields) set(p fieldpath.Path, dotted string, cur, base []any) []any {
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
			b.Errs = append(b.Errs, fmt.Sprintf("%s: %v", dotted, err))
			continue
		}
		if seen[pe.String()] {
			b.Dups = append(b.Dups, DupItem{List: dotted, Item: dotted + "[" + pe.String() + "]"})
			continue
		}
		seen[pe.String()] = true
		if !inBase[pe.String()] || owns(b.Own.Mine, child(p, pe)) {
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
func (b *Fields) removedSet(p fieldpath.Path, dotted string, values []any) {
	for _, v := range values {
		if pe, err := valueElement(v); err == nil {
			b.removedUnit(child(p, pe), dotted+"["+pe.String()+"]")
		}
	}
}
