package wire

import (
	"reflect"
	"strings"
)

// JSONName is the name encoding/json gives struct field f: its json tag's
// name, or the Go name when the tag has none (or is "-").
func JSONName(f reflect.StructField) string {
	name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
	if name == "" || name == "-" {
		return f.Name
	}
	return name
}
