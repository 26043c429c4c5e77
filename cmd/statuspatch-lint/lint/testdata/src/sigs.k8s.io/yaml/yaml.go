// Package yaml is a stub of sigs.k8s.io/yaml: Marshal encodes through
// encoding/json, as the real one does.
package yaml

import "encoding/json"

func Marshal(o any) ([]byte, error) { return json.Marshal(o) }
