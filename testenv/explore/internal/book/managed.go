package book

import (
	"bytes"
	"encoding/json"

	"sigs.k8s.io/structured-merge-diff/v6/fieldpath"
)

// Decision is what an apply was decided from, for "no lost write": the
// process (one cache, which never goes backwards), the reconciler and the
// object it reconciled, and the newest version of each object its step had
// read before it.
type Decision struct {
	Process int
	By      string
	Reads   map[string]int
}

// restates reports that later was decided at least as informed as d: the
// same reconciler on the same object in the same process, having read
// every object both read at a version no older. Its apply then restates
// the newest decision of that reconcile.
func (d *Decision) restates(later *Decision) bool {
	if d == nil || later == nil || d.Process != later.Process || d.By != later.By {
		return false
	}
	for o, v := range d.Reads {
		if w, ok := later.Reads[o]; ok && w < v {
			return false
		}
	}
	return true
}

// fieldManager is one entry of an object's metadata.managedFields: who
// wrote (manager), how (operation: Apply or Update), through which
// subresource.
type fieldManager struct{ manager, operation, subresource string }

// Restated reports that the apply described by applied, which changed
// the leaf at fields that o had set, restates o's decision: o was an apply
// of the same reconcile, no better informed, and the field was only that
// field manager's (restatesOwnApply).
func Restated(o Owner, applied *Decision, prev, cur map[string]any, fields []string) bool {
	return o.Applied.restates(applied) && restatesOwnApply(prev, cur, fields)
}

// restatesOwnApply reports that an apply changed the leaf at fields where
// only its own field manager's applies had set it, by the server's
// evidence: in the version it replaced, prev, the leaf was managed by one
// entry only, an Apply, and in the version it made, cur, by that entry or
// none (the apply dropped it from its configuration). The server takes a
// field from another manager only by giving it to the applier, and
// removes only fields the applier alone managed, so no other manager's
// value is lost there. Anything else (no managedFields, another manager,
// an Update, a fieldsV1 that does not decode) is not this case.
func restatesOwnApply(prev, cur map[string]any, fields []string) bool {
	before, ok := fieldManagers(prev, fields)
	if !ok || len(before) != 1 {
		return false
	}
	var own fieldManager
	for m := range before {
		own = m
	}
	if own.operation != "Apply" {
		return false
	}
	after, ok := fieldManagers(cur, fields)
	if !ok {
		return false
	}
	for m := range after {
		if m != own {
			return false
		}
	}
	return true
}

// fieldManagers returns the managedFields entries of obj that manage the
// leaf at fields, something beneath it (it may be a list, whose items an
// entry manages by key, value or index), or an ancestor of it as a whole
// (an atomic map). Each entry's fieldsV1 is decoded by structured-merge-
// diff's fieldpath, as the server encodes it; ok is false when one does
// not decode.
func fieldManagers(obj map[string]any, fields []string) (map[fieldManager]bool, bool) {
	out := map[fieldManager]bool{}
	meta, _ := obj["metadata"].(map[string]any)
	entries, _ := meta["managedFields"].([]any)
	for _, e := range entries {
		m, _ := e.(map[string]any)
		raw, _ := m["fieldsV1"].(map[string]any)
		if len(raw) == 0 {
			continue
		}
		b, err := json.Marshal(raw)
		if err != nil {
			return nil, false
		}
		set := &fieldpath.Set{}
		if err := set.FromJSON(bytes.NewReader(b)); err != nil {
			return nil, false
		}
		if !manages(set, fields) {
			continue
		}
		s := func(k string) string { v, _ := m[k].(string); return v }
		out[fieldManager{manager: s("manager"), operation: s("operation"), subresource: s("subresource")}] = true
	}
	return out, true
}

// manages reports whether set holds the field at fields, a member beneath
// it, or an ancestor of it as a whole (a member with no members beneath).
func manages(set *fieldpath.Set, fields []string) bool {
	s := set
	for i, name := range fields {
		pe := fieldpath.PathElement{FieldName: &name}
		member, child := s.Members.Has(pe), s.WithPrefix(pe)
		switch {
		case i == len(fields)-1:
			return member || !child.Empty()
		case child.Empty():
			return member // an ancestor owned whole, or not owned
		}
		s = child
	}
	return false
}
