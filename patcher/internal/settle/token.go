package settle

import (
	"fmt"
	"strings"
)

// Token is a write token (the +statuspatch:writeToken marker): a string
// field of the status into which the patcher puts a fresh unique value in
// every write it sends. No other request can carry that value, so the
// versions of the object say exactly which write they hold, with no
// managedFields reasoning:
//
//   - a version that holds the token was made by this write, or by a
//     later write that kept it: the write was stored, and, carrying the
//     lock, stored once (Landed);
//   - the first version after the base (the history) holding another
//     token, or none where the server keeps the field, was another
//     request's: the write, which carries the lock, was not stored and
//     cannot be (Conflict).
//
// A first version without any token is evidence only where the server
// keeps the field: a CRD whose schema prunes it stores every write
// without the token. Then (and when the schema cannot be read) the token
// decides nothing and the other evidence is asked.
type Token struct {
	// Path is the field's JSON names from the object's root ("status",
	// "writeToken").
	Path []string
	// Value is this write's token.
	Value string
}

// valueIn is the token field's value in v ("" when absent or not a
// string).
func (t *Token) valueIn(v Version) string {
	var cur any = v.Object
	for _, name := range t.Path {
		m, ok := cur.(map[string]any)
		if !ok {
			return ""
		}
		cur = m[name]
	}
	s, _ := cur.(string)
	return s
}

// heldBy reports whether v holds this write's token.
func (t *Token) heldBy(v Version) bool {
	return t != nil && t.Value != "" && t.valueIn(v) == t.Value
}

// kept reports whether the server keeps the token field: s declares it
// (or keeps unknown fields there). A nil s says nothing.
func (t *Token) kept(s *Schema) bool {
	if s == nil {
		return false
	}
	n := node(s.root)
	for _, name := range t.Path {
		child, known := n.field(name)
		if !known {
			return false
		}
		n = child
	}
	return true
}

// dotted is the token field's path for messages.
func (t *Token) dotted() string { return strings.Join(t.Path, ".") }

// landedByToken is the Decision of a version that holds the token.
func (t *Token) landed(where string) Decision {
	return Decision{Outcome: Landed, Why: fmt.Sprintf("%s holds this write's token at %s, which no other request carried", where, t.dotted())}
}

// first decides w by its token from next, the first version after the
// base; Unknown when the token cannot tell (no token in next, and the
// server's schema, asked through schema, does not show it keeps the
// field).
func (t *Token) first(w Write, next Version, schema func() *Schema) Decision {
	if next.UID != w.Base.UID {
		return Decision{Outcome: Conflict, Why: "the object was deleted and made again"}
	}
	got := t.valueIn(next)
	switch {
	case got == t.Value:
		return t.landed("the first write after the base")
	case got != "":
		return Decision{Outcome: Conflict, Why: fmt.Sprintf("the first write after the base, resourceVersion %s, holds another token at %s than this write's: "+
			"another request wrote it", next.ResourceVersion, t.dotted())}
	case t.valueIn(w.Base) != "" || t.kept(schema()):
		return Decision{Outcome: Conflict, Why: fmt.Sprintf("the first write after the base, resourceVersion %s, holds no token at %s, "+
			"a field the server keeps: another request wrote it", next.ResourceVersion, t.dotted())}
	}
	return Decision{Outcome: Unknown, Why: fmt.Sprintf("the first write after the base holds no token at %s, and the server's schema does not show that it keeps the field", t.dotted())}
}
