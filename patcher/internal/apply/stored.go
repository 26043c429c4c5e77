package apply

import (
	"reflect"
	"strings"

	"sigs.k8s.io/structured-merge-diff/v6/fieldpath"

	"github.com/statuspatch/statuspatch/patcher/internal/diff"
)

// What an apply stored (docs/apply.md): the response of a successful apply,
// or a fresh read after a lost one, compared with the apply field by field.
// Only the fields of the apply are compared: the others are other
// managers' or defaults.

// Stored compares the applied status with the stored one (decoded JSON):
// the fields stored otherwise than applied, and the removed fields no
// manager owned (Fields.Unowned) that the server still holds, as
// "defaulted". None: the apply was stored as sent.
func Stored(applied, stored any, unowned []fieldpath.Path, keys map[string][]string, sets map[string]bool) []diff.Divergence {
	var out []diff.Divergence
	misses("status", applied, stored, keys, sets, "status", &out)
	for _, u := range unowned {
		if holdsPath(stored, u[1:]) {
			out = append(out, diff.Divergence{Path: dottedPath(u), Cause: "defaulted"})
		}
	}
	return out
}

// holdsPath reports whether the decoded JSON v holds the field at p: a
// removed field no manager owned (a server default, say), which an apply
// cannot remove. Merge mode reports such a field, stored and not sent, as
// "defaulted"; so does apply mode.
func holdsPath(v any, p fieldpath.Path) bool {
	for _, pe := range p {
		switch {
		case pe.FieldName != nil:
			m, _ := v.(map[string]any)
			if v = m[*pe.FieldName]; v == nil {
				return false
			}
		case pe.Value != nil:
			l, _ := v.([]any)
			v = nil
			for _, it := range l {
				if vpe, err := valueElement(it); err == nil && vpe.Equals(pe) {
					v = it
				}
			}
			if v == nil {
				return false
			}
		case pe.Key != nil:
			names := make([]string, 0, len(*pe.Key))
			for _, f := range *pe.Key {
				names = append(names, f.Name)
			}
			l, _ := v.([]any)
			v = nil
			for _, it := range l {
				if k, err := ItemKey(it, names); err == nil && k.Equals(pe) {
					v = it
				}
			}
			if v == nil {
				return false
			}
		default:
			return false
		}
	}
	return true
}

// dottedPath is p as a JSON path: "status.phase", "status.conditions[type=\"Ready\"]".
func dottedPath(p fieldpath.Path) string {
	var sb strings.Builder
	for i, pe := range p {
		if pe.FieldName != nil {
			if i > 0 {
				sb.WriteString(".")
			}
			sb.WriteString(*pe.FieldName)
			continue
		}
		sb.WriteString(pe.String())
	}
	return sb.String()
}

// misses appends the paths where stored does not hold what sent (an
// applied value) set: the divergence of an apply, and, when none, the
// proof that an apply was stored. Fields stored but not sent are other
// managers' or defaults: not compared.
func misses(path string, sent, stored any, keys map[string][]string, sets map[string]bool, dotted string, out *[]diff.Divergence) {
	if stored == nil && sent != nil {
		*out = append(*out, diff.Divergence{Path: path, Cause: "pruned"})
		return
	}
	switch s := sent.(type) {
	case map[string]any:
		t, ok := stored.(map[string]any)
		if !ok {
			*out = append(*out, diff.Divergence{Path: path, Cause: "rewritten"})
			return
		}
		for k, sv := range s {
			misses(path+"."+k, sv, t[k], keys, sets, dotted+"."+k, out)
		}
		return
	case []any:
		if sets[dotted] {
			setMisses(path, s, stored, out)
			return
		}
		if k, ok := keys[dotted]; ok {
			t, _ := stored.([]any)
			byKey := map[string]any{}
			for _, it := range t {
				if pe, err := ItemKey(it, k); err == nil {
					byKey[pe.String()] = it
				}
			}
			for _, it := range s {
				pe, err := ItemKey(it, k)
				if err != nil {
					*out = append(*out, diff.Divergence{Path: path, Cause: "rewritten"})
					continue
				}
				misses(path+pe.String(), it, byKey[pe.String()], keys, sets, dotted, out)
			}
			return
		}
	}
	if !reflect.DeepEqual(sent, stored) {
		*out = append(*out, diff.Divergence{Path: path, Cause: "rewritten"})
	}
}

// setMisses appends a divergence for each value of sent that stored lacks.
func setMisses(path string, sent []any, stored any, out *[]diff.Divergence) {
	t, _ := stored.([]any)
	have := map[string]bool{}
	for _, v := range t {
		if pe, err := valueElement(v); err == nil {
			have[pe.String()] = true
		}
	}
	for _, v := range sent {
		if pe, err := valueElement(v); err != nil || !have[pe.String()] {
			*out = append(*out, diff.Divergence{Path: path, Cause: "rewritten"})
			return
		}
	}
}
