package patcher

import (
	"reflect"
	"strings"

	"github.com/statuspatch/statuspatch/patcher/internal/guard"
)

// nonStatusChanges lists the fields, as JSON paths, where the object differs
// from ref outside status: the writes a status patch would drop
// (guard.NonStatusChanges).
func (p *Patcher[T]) nonStatusChanges(ref T) []string {
	return guard.NonStatusChanges(p.obj, ref, p.status(p.obj))
}

// jsonName is the JSON name encoding/json gives the struct field f.
func jsonName(f reflect.StructField) string {
	name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
	if name == "" || name == "-" {
		return f.Name
	}
	return name
}
