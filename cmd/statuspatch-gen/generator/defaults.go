package generator

import (
	"fmt"
	"go/types"
	"io"
	"os"
	"strings"

	"sigs.k8s.io/controller-tools/pkg/loader"
	"sigs.k8s.io/controller-tools/pkg/markers"
)

// Warnings receives the generator's warnings, one `file:line: text` line
// each: findings that do not stop generation. The command sets it; tests may
// replace it.
var Warnings io.Writer = os.Stderr

const defaultMarkerName = "kubebuilder:default"

// defaultMarker is +kubebuilder:default=<value>, registered only when no
// other generator (crd) sharing the registry already defines it.
var defaultMarker = markers.Must(markers.MakeAnyTypeDefinition(defaultMarkerName, markers.DescribesField, defaultValue{}))

type defaultValue struct{ Value any }

// warnOmitemptyDefaults warns, at the field, about every status field of
// k (in k's own package, at any depth) that has both omitempty and a
// +kubebuilder:default: its zero value is never sent, the server defaults it
// back, and a status that wants the zero value is written again on every
// reconcile.
func warnOmitemptyDefaults(col *markers.Collector, root *loader.Package, ks []*kind) error {
	infos, err := statusTypes(col, root)
	if err != nil {
		return err
	}
	for _, k := range ks {
		walkStatus(root, infos, k.status, "status", func(f statusField) {
			if !hasOption(f.jsonOpts, "omitempty") || len(f.Markers[defaultMarkerName]) == 0 || !zeroIsOmitted(f.typ) {
				return
			}
			pos := root.Fset.Position(f.RawField.Pos())
			fmt.Fprintf(Warnings, "%s:%d: warning: %s field %s has omitempty and +%s: its zero value is never sent, so the server defaults it back "+
				"and a status that wants the zero value is written again on every reconcile; drop omitempty or make the field a pointer\n",
				relPath(pos.Filename), pos.Line, k.name(), f.path, defaultMarkerName)
		})
	}
	return nil
}

// fieldType is the type of a struct field from the package's type info.
func fieldType(root *loader.Package, f markers.FieldInfo) types.Type {
	if tv, ok := root.TypesInfo.Types[f.RawField.Type]; ok {
		return tv.Type
	}
	return nil
}

// elem looks through pointers, slices, arrays and maps to the element type.
func elem(t types.Type) types.Type {
	for {
		switch u := types.Unalias(t).(type) {
		case *types.Pointer:
			t = u.Elem()
		case *types.Slice:
			t = u.Elem()
		case *types.Array:
			t = u.Elem()
		case *types.Map:
			t = u.Elem()
		default:
			return t
		}
	}
}

// zeroIsOmitted reports whether encoding/json's omitempty drops t's zero
// value: it does for booleans, numbers, strings, slices and maps, not for
// pointers (a nil is dropped, a pointer to zero is sent) or structs.
func zeroIsOmitted(t types.Type) bool {
	if t == nil {
		return false
	}
	switch u := t.Underlying().(type) {
	case *types.Basic:
		return u.Info()&(types.IsBoolean|types.IsNumeric|types.IsString) != 0
	case *types.Slice, *types.Map:
		return true
	}
	return false
}

func hasOption(opts, want string) bool {
	for _, o := range strings.Split(opts, ",") {
		if o == want {
			return true
		}
	}
	return false
}
