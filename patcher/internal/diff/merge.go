package diff

import (
	"bytes"
	"encoding/json"
	"errors"

	jsonpatch "github.com/evanphx/json-patch/v5"
)

// StatusMergePatch returns the JSON merge patch (RFC 7386) that turns the
// status base into cur. Both are JSON values as marshalled from the status
// field: objects, or null for a nil pointer status.
func StatusMergePatch(base, cur []byte) ([]byte, error) {
	if IsJSONObject(base) && IsJSONObject(cur) {
		return jsonpatch.CreateMergePatch(base, cur)
	}
	// A null (nil pointer) on either side: the patch replaces status whole.
	return cur, nil
}

// PatchBody wraps a status merge patch with the base's resourceVersion, the
// optimistic lock: {"metadata":{"resourceVersion":rv},"status":patch}.
func PatchBody(resourceVersion string, statusPatch []byte) ([]byte, error) {
	if resourceVersion == "" {
		return nil, errors.New("object has no resourceVersion: it was not read from the API server")
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

// FinalizerBody is the metadata merge patch that sets the finalizer list
// under the optimistic lock.
func FinalizerBody(resourceVersion string, finalizers []string) ([]byte, error) {
	if finalizers == nil {
		finalizers = []string{}
	}
	return json.Marshal(map[string]any{"metadata": map[string]any{
		"resourceVersion": resourceVersion,
		"finalizers":      finalizers,
	}})
}

// IsJSONObject reports whether the JSON value b is an object.
func IsJSONObject(b []byte) bool {
	b = bytes.TrimLeft(b, " \t\r\n")
	return len(b) > 0 && b[0] == '{'
}

// object makes a JSON object of comma-separated members (`"name":value`).
func object(members []byte) []byte {
	b := make([]byte, 0, len(members)+2)
	b = append(b, '{')
	b = append(b, members...)
	return append(b, '}')
}
