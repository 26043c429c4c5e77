package patcher

import (
	"bytes"
	"encoding/json"
	"fmt"

	jsonpatch "github.com/evanphx/json-patch/v5"
)

// statusMergePatch returns the JSON merge patch (RFC 7386) that turns the
// status base into cur. Both are JSON values as marshalled from the status
// field: objects, or null for a nil pointer status.
func statusMergePatch(base, cur []byte) ([]byte, error) {
	if isJSONObject(base) && isJSONObject(cur) {
		return jsonpatch.CreateMergePatch(base, cur)
	}
	// A null (nil pointer) on either side: the patch replaces status whole.
	return cur, nil
}

// patchBody wraps a status merge patch with the base's resourceVersion, the
// optimistic lock: {"metadata":{"resourceVersion":rv},"status":patch}.
func patchBody(resourceVersion string, statusPatch []byte) ([]byte, error) {
	if resourceVersion == "" {
		return nil, fmt.Errorf("object has no resourceVersion: it was not read from the API server")
	}
	rv, err := json.Marshal(resourceVersion)
	if err != nil {
		return nil, err
	}
	var b bytes.Buffer
	b.Grow(len(statusPatch) + len(rv) + 48)
	b.WriteString(`{"metadata":{"resourceVersion":`)
	b.Write(rv)
	b.WriteString(`},"status":`)
	b.Write(statusPatch)
	b.WriteString(`}`)
	return b.Bytes(), nil
}

// finalizerBody is the metadata merge patch that sets the finalizer list
// under the optimistic lock.
func finalizerBody(resourceVersion string, finalizers []string) ([]byte, error) {
	if finalizers == nil {
		finalizers = []string{}
	}
	return json.Marshal(map[string]any{"metadata": map[string]any{
		"resourceVersion": resourceVersion,
		"finalizers":      finalizers,
	}})
}

func isJSONObject(b []byte) bool {
	b = bytes.TrimLeft(b, " \t\r\n")
	return len(b) > 0 && b[0] == '{'
}
