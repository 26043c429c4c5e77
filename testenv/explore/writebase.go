package explore

import (
	"github.com/statuspatch/statuspatch/testenv/explore/internal/book"

	"encoding/json"
	"strings"

	"sigs.k8s.io/controller-runtime/pkg/client"
)

// What a write is judged by, and what names it in a report.
//
// "no lost write" judges a write by the version of the object it was
// computed from, not by the newest read of its step: a reconcile that
// reads an object, decides, reads it again (a retry helper's check, a
// verification through the API reader) and then sends the decision as a
// blind merge patch of the object it first read has lost whatever was
// written between its two reads. The explorer cannot follow the values;
// it reads what the request says:
//
//   - a write under the lock (an update carrying a resourceVersion, a
//     patch or apply whose body carries metadata.resourceVersion) that
//     the server accepted was computed from the newest version, whatever
//     the step read: the server checked it;
//   - a blind write of an object carrying a resourceVersion the book
//     knows (a merge patch of what a Get filled, MergeFrom's usual use)
//     was computed from that version, older or newer than the step's
//     newest read;
//   - a write that carries neither (a patch of an empty object, an
//     apply without the lock, an update without resourceVersion) is
//     judged, as before, by the newest version the step had seen.

// writeBased is the version (Write.Based: 1-based, 0 none) a write of k
// the server accepted was computed from: lock is the resourceVersion
// the server checked ("" for none), held the one the sent object carried;
// based is the step's newest read. An accepted lock is a read of the
// newest version (the step's seen is raised to it).
func (c *checks) writeBased(k book.Key, lock, held string, based int) int {
	h := c.book.History(k)
	if h == nil {
		return based
	}
	newest := h.Newest()
	if lock != "" {
		if h.RVs[newest] != lock || h.Versions[newest] == nil {
			return based
		}
		if newest > c.trace.cur.seenOrNone(k) {
			c.trace.cur.seen[k] = newest
		}
		return max(based, newest+1)
	}
	if held == "" {
		return based
	}
	// Back to the object's last absence: before it, a version of another
	// object under the name (the fake client numbers each one's from 1).
	for i := newest; i >= 0 && h.Versions[i] != nil; i-- {
		if h.RVs[i] == held {
			return i + 1
		}
	}
	return based
}

// lockOf is the resourceVersion the server checks before taking a write
// of obj with the body data (nil: a whole object): an update's, or a
// patch's or apply's metadata.resourceVersion in the body; "" for none.
func lockOf(verb string, obj client.Object, data []byte) string {
	if verb == "update" || strings.HasSuffix(verb, " update") {
		return obj.GetResourceVersion()
	}
	return bodyRV(data)
}

// bodyRV is the metadata.resourceVersion of a JSON object body ("" when
// absent, or the body is not an object: a JSON Patch).
func bodyRV(data []byte) string {
	var body struct {
		Metadata struct {
			ResourceVersion string `json:"resourceVersion"`
		} `json:"metadata"`
	}
	if len(data) == 0 || data[0] != '{' || json.Unmarshal(data, &body) != nil {
		return ""
	}
	return body.Metadata.ResourceVersion
}
