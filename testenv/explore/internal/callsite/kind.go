package callsite

import (
	"fmt"
	"strings"

	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// NotStatusWrite is the audit class of a write that is not a status
// write (a create, a delete, a spec write, another subresource's): its
// request says so, and a report names its class so, linter or not.
const NotStatusWrite = "not a status write"

// StatusWrite reports that the write of verb ("status patch", "status
// update", "status apply", as the explorer's client records it) went to
// the status subresource.
func StatusWrite(verb string) bool { return strings.HasPrefix(verb, "status ") }

// Kind names a write as a report does, read from the request: its verb
// ("patch", "status update"), the patch p (nil: none) and the
// resourceVersion it sends as its lock ("" for none): "blind merge
// patch of status", "locked patch", "update", "apply without the lock".
func Kind(verb string, p client.Patch, lock string) string {
	sub, op := "", verb
	if i := strings.LastIndex(verb, " "); i >= 0 {
		sub, op = " of "+verb[:i], verb[i+1:]
	}
	switch op {
	case "patch":
		what := "patch"
		if p != nil {
			switch p.Type() {
			case types.MergePatchType:
				what = "merge patch"
			case types.StrategicMergePatchType:
				what = "strategic merge patch"
			case types.JSONPatchType:
				what = "JSON patch"
			}
		}
		if lock != "" {
			return "locked " + what + sub
		}
		return "blind " + what + sub
	case "apply":
		if lock != "" {
			return "apply" + sub + " with the lock"
		}
		return "apply" + sub + " without the lock"
	case "update":
		if lock == "" {
			return "update" + sub + " without resourceVersion"
		}
	}
	return op + sub
}

// Note names a write of kind (Kind) at its call site at (Of; "" when
// unknown) as a violation's message ends: ", by a blind merge patch of
// status at controllers/x.go:42", ", by an update"; "" for no kind.
func Note(kind, at string) string {
	if kind == "" {
		return ""
	}
	a := "a"
	if strings.ContainsRune("aeiou", rune(kind[0])) {
		a = "an"
	}
	note := fmt.Sprintf(", by %s %s", a, kind)
	if at != "" {
		note += " at " + at
	}
	return note
}
