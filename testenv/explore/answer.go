package explore

import (
	"encoding/json"
	"fmt"

	utiljson "k8s.io/apimachinery/pkg/util/json"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// answerContent is a write's answer, decoded into obj by the client, as
// the book records it: its wire form, the JSON the server answered,
// decoded as the book's reads from the server are (whole numbers as
// int64). Not runtime.DefaultUnstructuredConverter: a type's own
// ToUnstructured may give what is no JSON value (karpenter's
// NillableDuration gives its raw bytes, which the book cannot deep-copy),
// while its MarshalJSON is what the server and every client read.
func answerContent(obj client.Object) (map[string]any, error) {
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
