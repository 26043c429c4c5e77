package diff

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"k8s.io/apimachinery/pkg/types"
)

// A JSON merge patch (RFC 7386) reads null as "delete this member", so it
// cannot store a null: a required nullable field set to nil would be
// deleted (and the server rejects the status as missing a required field),
// and a nil value in a map whose schema keeps nulls would be deleted
// instead of stored. Status().Update stores both. For those writes, and
// only those, Flush sends a JSON Patch (RFC 6902) instead: still one
// request, still under the optimistic lock (the patch sets
// metadata.resourceVersion to the base's, which the server checks exactly
// as it does for a merge patch). The choice and its measurements are in
// docs/patcher.md ("Writes that carry null").

var jsonNull = []byte("null")

// StatusWrite returns the patch type and body that turn the server's status
// (base, as marshalled from the base object) into cur, under the lock of
// resourceVersion. baseZero says the base's status is the zero value: the
// server may then hold no status at all, so every field of cur is sent,
// not only those that differ from the zero value (a required field left at
// its zero value would otherwise be missing from the first write).
//
// A status that decoded to zero (or to a nil pointer) may still be a status
// object on the server, holding fields the Go type lacks (another writer's,
// or a newer build's). A merge patch leaves those alone; a JSON Patch that
// adds /status whole would replace them. So a JSON Patch from such a base
// asks hasStatus (called at most once, only then) whether the server holds
// a status object: only onto none is status added whole, and onto one, one
// field at a time.
func StatusWrite(resourceVersion string, base, cur []byte, baseZero bool, hasStatus func() (bool, error)) (types.PatchType, []byte, error) {
	if baseZero && IsJSONObject(cur) {
		base = []byte("{}")
	}
	patch, err := StatusMergePatch(base, cur)
	if err != nil {
		return "", nil, fmt.Errorf("diff status: %w", err)
	}
	if bytes.Contains(patch, jsonNull) {
		lost, err := mergeDropsNull(patch, cur)
		if err != nil {
			return "", nil, err
		}
		if lost {
			whole := !IsJSONObject(base) || bytes.Equal(bytes.TrimSpace(base), []byte("{}"))
			if whole && hasStatus != nil {
				present, err := hasStatus()
				if err != nil {
					return "", nil, err
				}
				whole = !present
			}
			body, err := jsonPatchBody(resourceVersion, whole, patch, cur)
			return types.JSONPatchType, body, err
		}
	}
	body, err := PatchBody(resourceVersion, patch)
	return types.MergePatchType, body, err
}

// mergeDropsNull reports whether applying the merge patch diff would drop a
// null that cur holds: a null member of cur that the patch carries, at any
// depth, or a null inside an array the patch carries (the merge patch
// algorithm prunes nulls from the new values it adds).
func mergeDropsNull(diff, cur []byte) (bool, error) {
	var d, c any
	if err := json.Unmarshal(diff, &d); err != nil {
		return false, fmt.Errorf("decode status patch: %w", err)
	}
	if err := json.Unmarshal(cur, &c); err != nil {
		return false, fmt.Errorf("decode status: %w", err)
	}
	dm, ok := d.(map[string]any)
	if !ok {
		// The patch is cur itself (the base was null).
		return containsNull(c), nil
	}
	cm, _ := c.(map[string]any)
	return patchDropsNull(dm, cm), nil
}

// patchDropsNull walks the merge patch d beside cur's object c. A null in d
// is either a deletion (c lacks the member) or a null c holds (the loss).
func patchDropsNull(d, c map[string]any) bool {
	for k, v := range d {
		cv, present := c[k]
		switch v := v.(type) {
		case nil:
			if present {
				return true
			}
		case map[string]any:
			cvm, _ := cv.(map[string]any)
			if patchDropsNull(v, cvm) {
				return true
			}
		case []any:
			if containsNull(v) {
				return true
			}
		}
	}
	return false
}

func containsNull(v any) bool {
	switch v := v.(type) {
	case nil:
		return true
	case map[string]any:
		for _, e := range v {
			if containsNull(e) {
				return true
			}
		}
	case []any:
		for _, e := range v {
			if containsNull(e) {
				return true
			}
		}
	}
	return false
}

// jsonPatchOp is one RFC 6902 operation.
type jsonPatchOp struct {
	Op    string          `json:"op"`
	Path  string          `json:"path"`
	Value json.RawMessage `json:"value,omitempty"`
}

// jsonPatchBody is the JSON Patch for the status change: the lock first
// (replace metadata.resourceVersion with the base's), then one operation
// per top-level status member the merge patch changes, each carrying cur's
// value whole, nulls included ("add" replaces an existing member), or
// "remove" for a member cur no longer has. When the server has no status
// object (whole), status is added whole.
func jsonPatchBody(resourceVersion string, whole bool, diff, cur []byte) ([]byte, error) {
	if resourceVersion == "" {
		return nil, fmt.Errorf("object has no resourceVersion: it was not read from the API server")
	}
	rv, err := json.Marshal(resourceVersion)
	if err != nil {
		return nil, err
	}
	ops := []jsonPatchOp{{Op: "replace", Path: "/metadata/resourceVersion", Value: rv}}
	var dm, cm map[string]json.RawMessage
	if whole || json.Unmarshal(diff, &dm) != nil || json.Unmarshal(cur, &cm) != nil {
		ops = append(ops, jsonPatchOp{Op: "add", Path: "/status", Value: cur})
		return json.Marshal(ops)
	}
	keys := make([]string, 0, len(dm))
	for k := range dm {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		path := "/status/" + escapePointer(k)
		if v, ok := cm[k]; ok {
			ops = append(ops, jsonPatchOp{Op: "add", Path: path, Value: v})
		} else {
			ops = append(ops, jsonPatchOp{Op: "remove", Path: path})
		}
	}
	return json.Marshal(ops)
}

// escapePointer escapes a member name for a JSON Pointer (RFC 6901).
func escapePointer(s string) string {
	return strings.NewReplacer("~", "~0", "/", "~1").Replace(s)
}
