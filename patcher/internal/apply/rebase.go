package apply

import (
	"reflect"
	"slices"
)

// The rebase of WriteApplyWithoutLock (docs/apply.md): without the lock the
// base may be stale, so the apply is built from the decision (the
// in-memory status against the base) laid over a fresh read.

// Rebase is the decision (cur against base) laid over fresh, the server's
// status as read again, all decoded JSON (nil: absent).
func (b *Fields) Rebase(cur, base, fresh any) any {
	return b.rebase("status", cur, base, fresh)
}

// rebase is the decision (cur against base) laid over fresh, the server's
// value at the same place, all decoded JSON: what the decision did not
// change is fresh's, objects are merged field by field, keyed lists item
// by item, sets value by value; anything else the decision changed is
// cur's. nil is "absent": an object, keyed list or set fresh lacks is
// merged as an empty one, so what the decision merely read and the server
// removed since stays removed.
func (b *Fields) rebase(dotted string, cur, base, fresh any) any {
	if reflect.DeepEqual(cur, base) {
		return fresh
	}
	if cur == nil {
		return nil
	}
	switch c := cur.(type) {
	case map[string]any:
		bm, _ := base.(map[string]any) // absent: every field is new
		fm, ok := fresh.(map[string]any)
		if !ok && fresh != nil {
			return cur
		}
		out := make(map[string]any, len(fm))
		for k, v := range fm {
			out[k] = v
		}
		for _, k := range unionKeys(c, bm) {
			if r := b.rebase(dotted+"."+k, c[k], bm[k], fm[k]); r != nil {
				out[k] = r
			} else {
				delete(out, k)
			}
		}
		if fresh == nil && len(out) == 0 && len(c) > 0 {
			return nil // only read fields the server no longer holds
		}
		return out
	case []any:
		bl, _ := base.([]any)
		fl, ok := fresh.([]any)
		if !ok && fresh != nil {
			return cur
		}
		if b.SetLists[dotted] {
			return rebaseItems(c, bl, fl, valueElementKey)
		}
		if keys, keyed := b.Keys[dotted]; keyed {
			return rebaseItems(c, bl, fl, func(v any) (string, bool) {
				pe, err := ItemKey(v, keys)
				return pe.String(), err == nil
			})
		}
	}
	return cur
}

func valueElementKey(v any) (string, bool) {
	pe, err := valueElement(v)
	return pe.String(), err == nil
}

// rebaseItems rebases a keyed list or a set: fresh's items, with the ones
// the decision changed, removed or added taken from cur. An item without a
// key is kept as cur has it (the apply builder refuses it).
func rebaseItems(cur, base, fresh []any, key func(any) (string, bool)) []any {
	byKey := func(l []any) map[string]any {
		m := map[string]any{}
		for _, it := range l {
			if k, ok := key(it); ok {
				m[k] = it
			}
		}
		return m
	}
	cm, bm := byKey(cur), byKey(base)
	changed := func(k string) bool { return !reflect.DeepEqual(cm[k], bm[k]) }
	out := []any{}
	inFresh := map[string]bool{}
	for _, it := range fresh {
		k, ok := key(it)
		inFresh[k] = ok
		switch {
		case !ok || !changed(k):
			out = append(out, it)
		case cm[k] != nil:
			out = append(out, cm[k])
		}
	}
	for _, it := range cur {
		k, ok := key(it)
		if !ok || (!inFresh[k] && changed(k)) {
			out = append(out, it)
		}
	}
	return out
}

func unionKeys(a, b map[string]any) []string {
	keys := make([]string, 0, len(a)+len(b))
	for k := range a {
		keys = append(keys, k)
	}
	for k := range b {
		if _, ok := a[k]; !ok {
			keys = append(keys, k)
		}
	}
	slices.Sort(keys)
	return keys
}
