package explore

import (
	"encoding/json"
	"strings"

	"sigs.k8s.io/controller-runtime/pkg/client"
)

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
