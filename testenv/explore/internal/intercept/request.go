package intercept

import (
	"encoding/json"
	"fmt"
	"strings"

	"k8s.io/apimachinery/pkg/types"
	utiljson "k8s.io/apimachinery/pkg/util/json"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// DryRun reports a DryRun option among a write's. A dry run (DryRun:
// All) stores nothing: its answer is what the server would have stored.
// It goes to the server as asked and is recorded nowhere: no version, no
// floor, no scope forgotten.
func DryRun(dr []string) bool { return len(dr) > 0 }

// ApplyVerb names a patch in the recorded schedule: a server-side apply
// sent as a patch (client.Apply, or client.RawPatch with ApplyPatchType,
// the route that works at every controller-runtime line) is "apply".
func ApplyVerb(prefix string, p client.Patch) string {
	if p != nil && p.Type() == types.ApplyPatchType {
		return prefix + "apply"
	}
	return prefix + "patch"
}

// LockOf is the resourceVersion the server checks before taking a write
// of obj with the body data (nil: a whole object): an update's, or a
// patch's or apply's metadata.resourceVersion in the body; "" for none.
func LockOf(verb string, obj client.Object, data []byte) string {
	if verb == "update" || strings.HasSuffix(verb, " update") {
		return obj.GetResourceVersion()
	}
	return BodyRV(data)
}

// BodyRV is the metadata.resourceVersion of a JSON object body ("" when
// absent, or the body is not an object: a JSON Patch).
func BodyRV(data []byte) string {
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

// AnswerContent is a write's answer, decoded into obj by the client, as
// the book records it: its wire form, the JSON the server answered,
// decoded as the book's reads from the server are (whole numbers as
// int64). Not runtime.DefaultUnstructuredConverter: a type's own
// ToUnstructured may give what is no JSON value (karpenter's
// NillableDuration gives its raw bytes, which the book cannot deep-copy),
// while its MarshalJSON is what the server and every client read.
func AnswerContent(obj client.Object) (map[string]any, error) {
	data, err := json.Marshal(obj)
	if err != nil {
		return nil, fmt.Errorf("explore: the answer to a write of %s/%s: %w", obj.GetNamespace(), obj.GetName(), err)
	}
	var content map[string]any
	if err := utiljson.Unmarshal(data, &content); err != nil {
		return nil, fmt.Errorf("explore: the answer to a write of %s/%s: %w", obj.GetNamespace(), obj.GetName(), err)
	}
	return content, nil
}

// Finalizing reports an answer that may be the last version of a deleted
// object: it is being deleted and has no finalizer left.
func Finalizing(obj client.Object) bool {
	return obj.GetDeletionTimestamp() != nil && len(obj.GetFinalizers()) == 0
}

// Shorten is s cut to n bytes, "..." marking the cut.
func Shorten(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "..."
}
