package patcher

import (
	"context"
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"strings"

	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/structured-merge-diff/v6/fieldpath"

	"github.com/statuspatch/statuspatch/patcher/internal/apply"
)

// What an apply stored (docs/apply.md): after a successful apply the
// response is compared with the apply, field by field, for divergences,
// and after a lost response a fresh read is compared with it to tell
// whether it landed (landed.go). Only the fields of the apply are
// compared: the others are other managers' or defaults.

// afterWrite takes a successful write's response.
func (p *Patcher[T]) afterWrite(ctx context.Context, scratch T, w *sentWrite[T]) (flushResult, error) {
	if w.patchType != types.ApplyPatchType {
		return p.applied(ctx, scratch, w.cur)
	}
	p.pending = nil
	p.wrote(scratch)
	p.replaceObject(scratch)
	p.setBase(p.obj)
	var ds []Divergence
	stored, err := json.Marshal(p.status(p.obj))
	if err != nil {
		return resultApplied, fmt.Errorf("statuspatch: %s: marshal status: %w", p.id(), err)
	}
	storedStatus := decodeStatus(stored)
	applyMisses("status", w.applied, storedStatus, p.applyKeys, apply.SetLists(p.obj.GetManagedFields()), "status", &ds)
	for _, u := range w.unowned {
		if holdsPath(storedStatus, u[1:]) {
			ds = append(ds, Divergence{Path: dottedPath(u), Cause: "defaulted"})
		}
	}
	if len(ds) == 0 {
		return resultApplied, nil
	}
	slices.SortFunc(ds, func(x, y Divergence) int { return strings.Compare(x.Path, y.Path) })
	return resultApplied, p.reportDivergence(ctx, ds)
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
				if vpe, err := apply.ValueElement(it); err == nil && vpe.Equals(pe) {
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
				if k, err := apply.ItemKey(it, names); err == nil && k.Equals(pe) {
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

// applyMisses appends the paths where stored does not hold what sent (an
// applied value) set: the divergence of an apply, and, when none, the
// proof that an apply was stored. Fields stored but not sent are other
// managers' or defaults: not compared.
func applyMisses(path string, sent, stored any, keys map[string][]string, sets map[string]bool, dotted string, out *[]Divergence) {
	if stored == nil && sent != nil {
		*out = append(*out, Divergence{Path: path, Cause: "pruned"})
		return
	}
	switch s := sent.(type) {
	case map[string]any:
		t, ok := stored.(map[string]any)
		if !ok {
			*out = append(*out, Divergence{Path: path, Cause: "rewritten"})
			return
		}
		for k, sv := range s {
			applyMisses(path+"."+k, sv, t[k], keys, sets, dotted+"."+k, out)
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
				if pe, err := apply.ItemKey(it, k); err == nil {
					byKey[pe.String()] = it
				}
			}
			for _, it := range s {
				pe, err := apply.ItemKey(it, k)
				if err != nil {
					*out = append(*out, Divergence{Path: path, Cause: "rewritten"})
					continue
				}
				applyMisses(path+pe.String(), it, byKey[pe.String()], keys, sets, dotted, out)
			}
			return
		}
	}
	if !reflect.DeepEqual(sent, stored) {
		*out = append(*out, Divergence{Path: path, Cause: "rewritten"})
	}
}

// setMisses appends a divergence for each value of sent that stored lacks.
func setMisses(path string, sent []any, stored any, out *[]Divergence) {
	t, _ := stored.([]any)
	have := map[string]bool{}
	for _, v := range t {
		if pe, err := apply.ValueElement(v); err == nil {
			have[pe.String()] = true
		}
	}
	for _, v := range sent {
		if pe, err := apply.ValueElement(v); err != nil || !have[pe.String()] {
			*out = append(*out, Divergence{Path: path, Cause: "rewritten"})
			return
		}
	}
}
