package generator

import (
	"go/types"
	"strings"

	"sigs.k8s.io/controller-tools/pkg/loader"
	"sigs.k8s.io/controller-tools/pkg/markers"
)

// statusField is one field of a kind's status types, where the JSON of the
// object has it.
type statusField struct {
	markers.FieldInfo
	path     string     // status.plan.steps: JSON field names; a list's items add no segment
	jsonOpts string     // the json tag's options after the name (omitempty, ...)
	typ      types.Type // nil when the package's type info lacks it
}

// statusTypes are the type declarations of root, by name, with their
// markers: the types walkStatus descends into.
func statusTypes(col *markers.Collector, root *loader.Package) (map[string]*markers.TypeInfo, error) {
	infos := map[string]*markers.TypeInfo{}
	if err := markers.EachType(col, root, func(info *markers.TypeInfo) { infos[info.Name] = info }); err != nil {
		return nil, err
	}
	return infos, nil
}

// walkStatus calls visit for every field under t, a kind's status type, at
// path ("status"), in field order: the types declared in root at any depth,
// through pointers, slices, arrays and maps; inline and embedded fields at
// their parent's level; json:"-" fields skipped; a type already on the way
// down (a recursive type) not entered again. It reads the types as the crd
// generator does.
func walkStatus(root *loader.Package, infos map[string]*markers.TypeInfo, t types.Type, path string, visit func(statusField)) {
	walkStatusTypes(root, infos, t, path, map[string]bool{}, visit)
}

func walkStatusTypes(root *loader.Package, infos map[string]*markers.TypeInfo, t types.Type, path string, seen map[string]bool, visit func(statusField)) {
	n, ok := types.Unalias(t).(*types.Named)
	if !ok || n.Obj().Pkg() != root.Types || seen[n.Obj().Name()] {
		return
	}
	info := infos[n.Obj().Name()]
	if info == nil {
		return
	}
	seen[n.Obj().Name()] = true
	defer delete(seen, n.Obj().Name())
	for _, f := range info.Fields {
		name, opts, _ := strings.Cut(f.Tag.Get("json"), ",")
		if name == "-" {
			continue
		}
		ft := fieldType(root, f)
		if name == "" && ft != nil { // inline or embedded: same JSON level
			walkStatusTypes(root, infos, ft, path, seen, visit)
			continue
		}
		sf := statusField{FieldInfo: f, path: path + "." + name, jsonOpts: opts, typ: ft}
		visit(sf)
		if ft != nil {
			walkStatusTypes(root, infos, elem(ft), sf.path, seen, visit)
		}
	}
}
