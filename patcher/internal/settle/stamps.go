package settle

// adds reports whether w, applied to its base, adds or changes a value.
// The server's field manager stamps an Update's entry (its time, its
// fields) only for the fields the write adds or changes; a write that
// only removes (items of a map list or a set, a condition, map keys)
// stamps no entry at all, so neither its own stamp nor "a stored write
// would have stamped it" can be evidence of it. A list whose declared type
// settling does not know here is taken as granular: one that holds only
// members the base's list holds (fewer, or reordered) adds nothing. For a
// map list or a set that is exact; an atomic list does get a stamp, and
// taking it as none leaves its outcome Unknown, never wrong. The write
// token's own value (Write.Token; set before w is filled) is a change
// only where the server is known to store it (Token.Stored): where it
// prunes the field, the write that sets it and only removes otherwise
// stamps nothing.
func (w Write) adds() bool {
	for _, l := range w.Sets {
		if w.Token != nil && !w.Token.Stored && w.Token.isPath(l.Path) {
			continue
		}
		if l.Unchecked {
			return true
		}
		old, _ := lookup(w.Base.Object, l.Path)
		if addsTo(old, l.Value) {
			return true
		}
	}
	return false
}

// addsTo reports whether v, written over old (nil: absent), adds or
// changes a value. Nulls, empty maps and empty lists are taken as adding
// nothing: whether the server records them as fields depends on the
// schema, and taking them as no stamp only makes an outcome Unknown.
func addsTo(old, v any) bool {
	switch x := v.(type) {
	case nil:
		return false
	case []any:
		ol, _ := old.([]any)
		return !subMultiset(x, ol)
	case map[string]any:
		om, _ := old.(map[string]any)
		for k, cv := range x {
			if addsTo(om[k], cv) {
				return true
			}
		}
		return false
	}
	if old == nil {
		return true
	}
	if scalar(v) && scalar(old) {
		return !sameValue(v, old)
	}
	return !sameJSON(v, old)
}

// subMultiset reports whether every member of l is one of base's, each
// member of base counted once.
func subMultiset(l, base []any) bool {
	count := map[string]int{}
	for _, v := range base {
		count[canonical(v)]++
	}
	for _, v := range l {
		c := canonical(v)
		if count[c] == 0 {
			return false
		}
		count[c]--
	}
	return true
}
