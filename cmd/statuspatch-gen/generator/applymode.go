package generator

import (
	"reflect"
	"strconv"
	"strings"

	"sigs.k8s.io/controller-tools/pkg/loader"
	"sigs.k8s.io/controller-tools/pkg/markers"
)

// The apply mode, chosen per kind: +statuspatch:apply on the type makes the
// generated constructors pass patcher.WithWriteMode(patcher.WriteApply)
// (Flush writes by server-side apply carrying the base's resourceVersion)
// and, for every +listType=map list under the status,
// patcher.WithListMapKeys with its +listMapKey keys, so the apply owns the
// list's items per key.
const (
	applyMarkerName      = "statuspatch:apply"
	listTypeMarkerName   = "listType"
	listMapKeyMarkerName = "listMapKey"
)

var (
	applyMarker = markers.Must(markers.MakeDefinition(applyMarkerName, markers.DescribesType, false))
	// controller-gen's crd generator defines these (its definitions win
	// when it shares the registry, see RegisterMarkers); their values are
	// strings of its own types, read by valueString.
	listTypeDef   = markers.Must(markers.MakeDefinition(listTypeMarkerName, markers.DescribesField, ""))
	listMapKeyDef = markers.Must(markers.MakeDefinition(listMapKeyMarkerName, markers.DescribesField, ""))
)

// listMap is a +listType=map list under a kind's status.
type listMap struct {
	path string   // status.conditions: JSON field names; a list's items add no segment
	keys []string // its +listMapKey values, in marker order
}

// applyEnabled reports whether a type carries +statuspatch:apply (=true).
func applyEnabled(typeMarkers markers.MarkerValues) bool {
	on, _ := typeMarkers.Get(applyMarkerName).(bool)
	return on
}

// findListMaps fills in the +listType=map lists of the kinds in the apply
// mode, walking the status types declared in root (at any depth, through
// pointers, slices, maps and inline fields) as the crd generator reads them.
func findListMaps(col *markers.Collector, root *loader.Package, ks []*kind) error {
	infos, err := statusTypes(col, root)
	if err != nil {
		return err
	}
	for _, k := range ks {
		if !k.apply {
			continue
		}
		walkStatus(root, infos, k.status, "status", func(f statusField) {
			if valueString(f.Markers.Get(listTypeMarkerName)) != "map" {
				return
			}
			var keys []string
			for _, v := range f.Markers[listMapKeyMarkerName] {
				keys = append(keys, valueString(v))
			}
			if len(keys) > 0 {
				k.listMaps = append(k.listMaps, listMap{path: f.path, keys: keys})
			}
		})
	}
	return nil
}

// valueString is a marker value of any string kind (ours, or the crd
// generator's ListType and ListMapKey), else "".
func valueString(v any) string {
	rv := reflect.ValueOf(v)
	if rv.Kind() != reflect.String {
		return ""
	}
	return rv.String()
}

// applyOptions are the options a constructor of k passes before the
// caller's, as Go source with the patcher package named p; "" without the
// apply mode.
func applyOptions(k *kind, p string) string {
	if !k.apply {
		return ""
	}
	opts := []string{p + ".WithWriteMode(" + p + ".WriteApply)"}
	for _, lm := range k.listMaps {
		args := []string{strconv.Quote(lm.path)}
		for _, key := range lm.keys {
			args = append(args, strconv.Quote(key))
		}
		opts = append(opts, p+".WithListMapKeys("+strings.Join(args, ", ")+")")
	}
	return strings.Join(opts, ", ")
}
