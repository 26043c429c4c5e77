package explore

import (
	"github.com/statuspatch/statuspatch/testenv/explore/internal/book"
	"github.com/statuspatch/statuspatch/testenv/explore/internal/judge"

	"encoding/json"
	"strings"

	"sigs.k8s.io/controller-runtime/pkg/client"
)

// writeBased is the version (Write.Based: 1-based, 0 none) a write of k
// the server accepted was computed from (judge.Based, which says what a
// write is judged by): lock is the resourceVersion the server checked
// ("" for none), held the one the sent object carried; based is the
// step's newest read. An accepted lock is a read of the newest version
// (the step's seen is raised to it).
func (c *checks) writeBased(k book.Key, lock, held string, based int) int {
	v, read := judge.Based(c.book.History(k), lock, held, based)
	if read >= 0 && read > c.trace.cur.seenOrNone(k) {
		c.trace.cur.seen[k] = read
	}
	return v
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
