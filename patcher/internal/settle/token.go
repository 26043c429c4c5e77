package settle

import (
	"fmt"
	"strings"

	"sigs.k8s.io/structured-merge-diff/v6/fieldpath"
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
//     token was another request's: this write, stored, would hold its own
//     token or, pruned, none (Conflict);
//   - the first version holding none was another request's only where
//     the server is known to store the field (Stored): where it prunes
//     the field (a CRD older than the controller, a storage version
//     without it), every write, this one too, is stored without a token.
//
// A token that is not known to be stored decides nothing but the two
// cases above, and its own value is no change for the other evidence
// (Write.Stamps): the write is settled as one without it.
type Token struct {
	// Path is the field's JSON names from the object's root ("status",
	// "writeToken").
	Path []string
	// Value is this write's token.
	Value string
	// Stored: the server has shown that it stores the field, by its own
	// answers (a stored write's response, a read, or a server-side dry
	// run's answer, that holds a token the patcher sent), and no answer
	// since lacked the token its write carried. A schema never shows it: the version read and the storage
	// version may each prune it, and a conversion webhook may drop it.
	Stored bool
	// Pruned says why the token is known not to be stored, for messages
	// (a write's answer that lacked it; "": not known).
	Pruned string
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

// storedGiven reports whether the token is known stored (Stored) and s,
// the server's schema (nil: unreadable), does not rule that out; why
// says why not.
func (t *Token) storedGiven(s *Schema) (ok bool, why string) {
	if by := s.prunedBy(t.Path); by != "" {
		crd := "the CustomResourceDefinition"
		if s.CRD != "" {
			crd += " " + s.CRD
		}
		return false, fmt.Sprintf("%s in the cluster has no %s in %s, so the server stores every write without it: apply the current CRDs", crd, t.dotted(), by)
	}
	switch {
	case t.Pruned != "":
		return false, t.Pruned
	case !t.Stored:
		return false, fmt.Sprintf("no answer of the server has yet shown that it stores %s (a stored write's response or a read holding a token this process sent)", t.dotted())
	}
	return true, ""
}

// isPath reports whether p is the token field's path.
func (t *Token) isPath(p fieldpath.Path) bool {
	if len(p) != len(t.Path) {
		return false
	}
	for i, pe := range p {
		if pe.FieldName == nil || *pe.FieldName != t.Path[i] {
			return false
		}
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
// token not known to be stored, or the server's schema, asked through
// schema, shows it pruned).
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
	}
	if ok, why := t.storedGiven(schema()); !ok {
		return Decision{Outcome: Unknown, Why: fmt.Sprintf("the first write after the base holds no token at %s, and %s", t.dotted(), why)}
	}
	return Decision{Outcome: Conflict, Why: fmt.Sprintf("the first write after the base, resourceVersion %s, holds no token at %s, "+
		"a field the server has shown it stores: another request wrote it", next.ResourceVersion, t.dotted())}
}
