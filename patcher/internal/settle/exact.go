package settle

import (
	"encoding/json"
	"fmt"
	"maps"
	"reflect"
	"slices"
	"strings"

	jsonpatch "github.com/evanphx/json-patch/v5"
	"sigs.k8s.io/structured-merge-diff/v6/fieldpath"
)

// The exact comparison (First): a version is this write's only when it is
// the base plus this write, with every difference explained by the
// server's schema for the object.

// body is a sent patch that the prediction replays on the base: a JSON
// merge patch or a JSON Patch (an apply is replayed from its leaves).
type body struct {
	merge, jsonPatch []byte
}

// predict returns the base plus w, as the server would hold it before its
// pruning and defaults; an error when w cannot be replayed on the base.
func (w Write) predict() (map[string]any, error) {
	if w.body.merge == nil && w.body.jsonPatch == nil {
		out, _ := deepCopy(w.Base.Object).(map[string]any)
		if out == nil {
			out = map[string]any{}
		}
		for _, l := range w.Sets {
			if l.Unchecked {
				return nil, fmt.Errorf("the value at %s cannot be predicted", l.Path)
			}
			put(out, l.Path, deepCopy(l.Value))
		}
		// A removed item or map first: a removal below it finds nothing.
		removals := slices.SortedStableFunc(slices.Values(w.Removals), func(a, b fieldpath.Path) int { return len(a) - len(b) })
		for _, r := range removals {
			drop(out, r)
		}
		return out, nil
	}
	base, err := json.Marshal(w.Base.Object)
	if err != nil {
		return nil, err
	}
	var doc []byte
	if w.body.merge != nil {
		doc, err = jsonpatch.MergePatch(base, w.body.merge)
	} else {
		var p jsonpatch.Patch
		if p, err = jsonpatch.DecodePatch(w.body.jsonPatch); err == nil {
			doc, err = p.Apply(base)
		}
	}
	if err != nil {
		return nil, fmt.Errorf("replay the write on the base: %w", err)
	}
	return Decode(doc)
}

func deepCopy(v any) any {
	switch x := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, c := range x {
			out[k] = deepCopy(c)
		}
		return out
	case []any:
		out := make([]any, len(x))
		for i, c := range x {
			out[i] = deepCopy(c)
		}
		return out
	}
	return v
}

// put sets the value at p in root, making the maps, map-list items and
// set values on the way; an empty map sets nothing below an existing map
// (an apply or a merge of {} keeps what is there).
func put(root map[string]any, p fieldpath.Path, v any) {
	if len(p) == 0 {
		return
	}
	var cur any = root
	var set func(any)
	for i, pe := range p {
		last := i == len(p)-1
		switch {
		case pe.FieldName != nil:
			m, ok := cur.(map[string]any)
			if !ok {
				m = map[string]any{}
				set(m)
			}
			name := *pe.FieldName
			set = func(x any) { m[name] = x }
			cur = m[name]
		case pe.Key != nil || pe.Value != nil:
			l, _ := cur.([]any)
			idx := slices.IndexFunc(l, func(it any) bool { _, ok := lookup([]any{it}, fieldpath.Path{pe}); return ok })
			if idx < 0 {
				var item any
				if pe.Value != nil {
					item = (*pe.Value).Unstructured()
				} else {
					keyed := map[string]any{}
					for _, f := range *pe.Key {
						keyed[f.Name] = f.Value.Unstructured()
					}
					item = keyed
				}
				l = append(l, item)
				idx = len(l) - 1
				if set != nil {
					set(l)
				}
			}
			cur = l[idx]
			set = func(x any) { l[idx] = x }
		default:
			return
		}
		if last {
			if em, ok := v.(map[string]any); ok && len(em) == 0 {
				if _, isMap := cur.(map[string]any); isMap {
					return
				}
			}
			set(v) // every case above set it
		}
	}
}

// drop removes the field, map-list item or set value at p from root.
func drop(root map[string]any, p fieldpath.Path) {
	if len(p) == 0 {
		return
	}
	parent, ok := lookup(root, p[:len(p)-1])
	if !ok {
		return
	}
	last := p[len(p)-1]
	switch {
	case last.FieldName != nil:
		if m, ok := parent.(map[string]any); ok {
			delete(m, *last.FieldName)
		}
	case last.Key != nil || last.Value != nil:
		l, _ := parent.([]any)
		kept := slices.DeleteFunc(slices.Clone(l), func(it any) bool { _, ok := lookup([]any{it}, fieldpath.Path{last}); return ok })
		put(root, p[:len(p)-1], kept)
	}
}

// gap is what the exact comparison found: differs, a difference no schema
// explains (the version is another writer's); unexplained, one that only
// a schema could explain, when none was given (or the schema does not).
type gap struct {
	differs, unexplained string
	// outside: differs is outside the status (metadata or spec).
	outside bool
}

// exact compares next with want (the base plus this write) below the
// schema node n. Members of want that next lacks must be pruned by the
// schema, members of next that want lacks defaulted with the value next
// holds, and lists compare by their declared type.
func exact(at string, want, next any, n node, s *Schema, g *gap) {
	if g.differs != "" {
		return
	}
	wm, wok := want.(map[string]any)
	nm, nok := next.(map[string]any)
	if wok && nok {
		for _, k := range sortedKeys(wm, nm) {
			wv, win := wm[k]
			nv, nin := nm[k]
			child, known := n.field(k)
			p := at + "." + k
			if win && wv == nil && s != nil && known && !child.flag("nullable") {
				// A null where the schema allows none: the server prunes
				// it, then defaults the member as if it were absent.
				win = false
			}
			def, defaulted := child.defaultValue()
			switch {
			case win && nin && s != nil && !known:
				g.differs = fmt.Sprintf("%s is held, which the schema prunes", p)
			case win && nin:
				exact(p, wv, nv, child, s, g)
			case s == nil && g.unexplained == "":
				g.unexplained = p
			case s == nil:
			case win && known:
				g.differs = fmt.Sprintf("%s is not held, which the schema keeps", p)
			case nin && (!known || !defaulted):
				g.differs = fmt.Sprintf("%s is held, which neither the base nor this write holds and the schema does not default", p)
			case nin:
				// Defaulted: the default, with the defaults of its own
				// members (the server defaults a default's members too).
				exact(p, def, nv, child, s, g)
			}
		}
		return
	}
	wl, wok := want.([]any)
	nl, nok := next.([]any)
	if wok && nok {
		exactList(at, wl, nl, n, s, g)
		return
	}
	if !sameJSON(want, next) {
		g.differs = fmt.Sprintf("%s holds another value", at)
	}
}

func exactList(at string, want, next []any, n node, s *Schema, g *gap) {
	switch lt, keys := n.listType(); {
	case len(want) != len(next):
		// Neither pruning nor a default changes a list's length.
		g.differs = fmt.Sprintf("%s holds %d items, the base plus this write %d", at, len(next), len(want))
	case sameJSON(want, next):
	case s == nil && !sameMembers(want, next) && scalars(want) && scalars(next):
		g.differs = fmt.Sprintf("%s holds other values", at)
	case s == nil:
		// Without the schema the list's type is not known: items in
		// another order, or objects differing where a schema might
		// explain it.
		if g.unexplained == "" {
			g.unexplained = at
		}
	case lt == "set":
		if !sameMembers(want, next) {
			g.differs = fmt.Sprintf("%s holds other values (a set)", at)
		}
	case lt == "map":
		wk, nk := keyed(want, keys), keyed(next, keys)
		if wk == nil || nk == nil {
			g.differs = fmt.Sprintf("%s holds other items (a map list keyed by %s)", at, strings.Join(keys, ","))
			return
		}
		for _, k := range slices.Sorted(maps.Keys(wk)) {
			nv, ok := nk[k]
			if !ok {
				g.differs = fmt.Sprintf("%s lacks the item %s", at, k)
				return
			}
			exact(at+"["+k+"]", wk[k], nv, n.items(), s, g)
		}
	default:
		for i := range want {
			exact(fmt.Sprintf("%s[%d]", at, i), want[i], next[i], n.items(), s, g)
		}
	}
}

// keyed indexes a map list's items by their keys' JSON; nil when an item
// is not an object or two share their keys.
func keyed(l []any, keys []string) map[string]any {
	out := map[string]any{}
	for _, it := range l {
		m, ok := it.(map[string]any)
		if !ok {
			return nil
		}
		k := make([]any, len(keys))
		for i, name := range keys {
			k[i] = m[name]
		}
		b, err := json.Marshal(k)
		if err != nil || out[string(b)] != nil {
			return nil
		}
		out[string(b)] = it
	}
	return out
}

// scalars reports whether l holds no object nor list.
func scalars(l []any) bool {
	for _, v := range l {
		switch v.(type) {
		case map[string]any, []any:
			return false
		}
	}
	return true
}

// sameMembers reports whether a and b hold the same values, in any order.
func sameMembers(a, b []any) bool {
	count := map[string]int{}
	for _, v := range a {
		count[canonical(v)]++
	}
	for _, v := range b {
		count[canonical(v)]--
	}
	for _, n := range count {
		if n != 0 {
			return false
		}
	}
	return true
}

func canonical(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprintf("%#v", v)
	}
	return string(b)
}

func sameJSON(a, b any) bool {
	return reflect.DeepEqual(a, b) || canonical(a) == canonical(b)
}

func sortedKeys(a, b map[string]any) []string {
	ks := slices.Collect(maps.Keys(a))
	for k := range b {
		if _, ok := a[k]; !ok {
			ks = append(ks, k)
		}
	}
	slices.Sort(ks)
	return ks
}

// compareFirst compares next, the first version after the base, with the
// base plus w: the status below the schema, everything else (metadata but
// what every write changes, the spec) exactly.
func (w Write) compareFirst(next Version, s *Schema) (gap, error) {
	want, err := w.predict()
	if err != nil {
		return gap{}, err
	}
	if w.Token != nil && !w.Token.Stored {
		// A token not known stored is compared as absent on both sides:
		// the server may prune it from every write (Token).
		want, next.Object = without(want, w.Token.Path), without(next.Object, w.Token.Path)
	}
	var g gap
	var root node
	if s != nil {
		root = node(s.root)
	}
	for _, k := range sortedKeys(want, next.Object) {
		if ignored(nil, k) {
			continue
		}
		wv, nv := want[k], next.Object[k]
		if k == "metadata" {
			wv, nv = withoutWriteMeta(orEmpty(wv)), withoutWriteMeta(orEmpty(nv))
		}
		if k != "status" {
			if !sameJSON(wv, nv) {
				g.differs, g.outside = fmt.Sprintf("%s changed, which a status write does not change", k), true
				return g, nil
			}
			continue
		}
		child, _ := root.field(k)
		if s != nil && child == nil {
			s = nil // no schema of the status: nothing explained
		}
		exact(k, orEmpty(wv), orEmpty(nv), child, s, &g)
	}
	return g, nil
}

// without is a copy of m without the field at path (m itself when it
// holds none); the maps on the way are copied, the rest is shared.
func without(m map[string]any, path []string) map[string]any {
	if len(path) == 0 {
		return m
	}
	v, ok := m[path[0]]
	if !ok {
		return m
	}
	out := maps.Clone(m)
	if len(path) == 1 {
		delete(out, path[0])
		return out
	}
	child, isMap := v.(map[string]any)
	if !isMap {
		return m
	}
	out[path[0]] = without(child, path[1:])
	return out
}

// orEmpty is v, an absent status ({} for a typed read) as an empty one.
func orEmpty(v any) any {
	if v == nil {
		return map[string]any{}
	}
	return v
}

func withoutWriteMeta(v any) any {
	m, ok := v.(map[string]any)
	if !ok {
		return v
	}
	out := maps.Clone(m)
	delete(out, "resourceVersion")
	delete(out, "managedFields")
	return out
}
