package generator

import (
	"fmt"
	"go/ast"
	"strings"

	"sigs.k8s.io/controller-tools/pkg/genall"
	"sigs.k8s.io/controller-tools/pkg/loader"
	"sigs.k8s.io/controller-tools/pkg/markers"
)

// Marker names read by the generator.
const (
	generateMarkerName      = "statuspatch:generate"
	objectRootMarkerName    = "kubebuilder:object:root"
	statusSubresourceMarker = "kubebuilder:subresource:status"
	storageVersionMarker    = "kubebuilder:storageversion"
	// Root types written for code-generator instead of kubebuilder carry one
	// of these (controller-gen's object generator accepts the first too).
	legacyObjectMarkerName = "k8s:deepcopy-gen:interfaces"
	genclientMarkerName    = "genclient"
	runtimeObjectPath      = "k8s.io/apimachinery/pkg/runtime.Object"
)

// subresourceStatus is the value of +kubebuilder:subresource:status. Only its
// presence matters; when the crd generator shares the registry its own
// definition wins (see RegisterMarkers).
type subresourceStatus struct{}

// storageVersion is the value of +kubebuilder:storageversion, the version of
// a multi-version kind the API server stores (see resolveVersions).
type storageVersion struct{}

// genclient is the value of a bare +genclient (client-gen's marker for a
// type that gets a client).
type genclient struct{}

var (
	enableTypeMarker = markers.Must(markers.MakeDefinition(generateMarkerName, markers.DescribesType, false))
	enablePkgMarker  = markers.Must(markers.MakeDefinition(generateMarkerName, markers.DescribesPackage, false))
	objectRootMarker = markers.Must(markers.MakeDefinition(objectRootMarkerName, markers.DescribesType, false))
	subresourceDef   = markers.Must(markers.MakeDefinition(statusSubresourceMarker, markers.DescribesType, subresourceStatus{}))
	storageDef       = markers.Must(markers.MakeDefinition(storageVersionMarker, markers.DescribesType, storageVersion{}))
	legacyObjectDef  = markers.Must(markers.MakeDefinition(legacyObjectMarkerName, markers.DescribesType, ""))
	genclientDef     = markers.Must(markers.MakeDefinition(genclientMarkerName, markers.DescribesType, genclient{}))
	// The collector looks +genclient:method=... up as "genclient:method",
	// then as "genclient": these absorb client-gen's options with arguments
	// so that they do not parse as +genclient.
	genclientOptionDefs = []*markers.Definition{
		markers.Must(markers.MakeDefinition(genclientMarkerName+":method", markers.DescribesType, markers.RawArguments(nil))),
		markers.Must(markers.MakeDefinition(genclientMarkerName+":skipVerbs", markers.DescribesType, markers.RawArguments(nil))),
		markers.Must(markers.MakeDefinition(genclientMarkerName+":onlyVerbs", markers.DescribesType, markers.RawArguments(nil))),
	}
)

// +controllertools:marker:generateHelp

// Generator generates typed status patchers for CRD kinds.
//
// Every root type with a status subresource gets a <Kind>StatusPatcher over
// package github.com/statuspatch/statuspatch/patcher.
//
// Output goes to zz_generated.statuspatch.go beside the types, or, with
// output:dir=DIR, to one package in DIR that imports the API packages.
type Generator struct {
	// HeaderFile specifies the header text (e.g. license) to put in generated files.
	HeaderFile string `marker:",optional"`
	// Year specifies the year to substitute for "YEAR" in the header file.
	Year string `marker:",optional"`
	// AllowNoKinds makes a run whose packages hold no kinds succeed (by default it is an error: paths= likely points at the wrong packages).
	AllowNoKinds bool `marker:",optional"`
	// Kinds names the types to generate patchers for, whatever their markers, and only those: for API packages without kubebuilder markers (kinds=StatefulSet;Deployment with paths=k8s.io/api/apps/v1 and an output:dir). Each must be in a package of paths= and have a Status field.
	Kinds []string `marker:",optional"`
}

// RegisterMarkers registers the markers the generator reads. The kubebuilder
// markers are registered only when no other generator (object, crd) sharing
// the registry already defines them, so their definitions stay intact.
func (Generator) RegisterMarkers(into *markers.Registry) error {
	if err := markers.RegisterAll(into, enableTypeMarker, enablePkgMarker, applyMarker, writeTokenMarker); err != nil {
		return fmt.Errorf("register statuspatch markers: %w", err)
	}
	into.AddHelp(applyMarker, markers.SimpleHelp("statuspatch",
		"makes this kind's generated constructors pass patcher.WithWriteMode(patcher.WriteApply) (Flush writes by server-side apply carrying the base's resourceVersion) and patcher.WithListMapKeys for every +listType=map list under its status"))
	into.AddHelp(writeTokenMarker, markers.SimpleHelp("statuspatch",
		"on a string field of a kind's status: the generated constructors pass patcher.WithWriteToken for it, so every status write carries a fresh unique token there and a write whose answer was lost is settled exactly (stored, or a Conflict)"))
	into.AddHelp(enableTypeMarker, markers.SimpleHelp("statuspatch",
		"overrides enabling or disabling status patcher generation for this type; on a type without +kubebuilder:subresource:status or a struct Status field, true is an error"))
	into.AddHelp(enablePkgMarker, markers.SimpleHelp("statuspatch",
		"enables or disables status patcher generation for the kinds of this package (default true); a type-level marker wins"))
	shared := append([]*markers.Definition{objectRootMarker, subresourceDef, storageDef, legacyObjectDef, genclientDef, defaultMarker, listTypeDef, listMapKeyDef}, genclientOptionDefs...)
	for _, def := range shared {
		if into.Lookup("+"+def.Name, def.Target) != nil {
			continue
		}
		if err := into.Register(def); err != nil {
			return fmt.Errorf("register %s marker: %w", def.Name, err)
		}
	}
	if into.HelpFor(objectRootMarker) == nil {
		into.AddHelp(objectRootMarker, markers.SimpleHelp("statuspatch",
			"marks a root type (a kind); read by statuspatch to find kinds"))
	}
	if into.HelpFor(subresourceDef) == nil {
		into.AddHelp(subresourceDef, markers.SimpleHelp("statuspatch",
			"enables the status subresource; statuspatch generates a patcher for root types that carry it"))
	}
	if into.HelpFor(storageDef) == nil {
		into.AddHelp(storageDef, markers.SimpleHelp("statuspatch",
			"marks the stored version of a kind served in several versions; read by statuspatch, which gives that version the kind's patcher when the versions share an output:dir"))
	}
	if into.HelpFor(legacyObjectDef) == nil {
		into.AddHelp(legacyObjectDef, markers.SimpleHelp("statuspatch",
			"with =k8s.io/apimachinery/pkg/runtime.Object, marks a root type written for code-generator; read by statuspatch like +kubebuilder:object:root"))
	}
	if into.HelpFor(defaultMarker) == nil {
		into.AddHelp(defaultMarker, markers.SimpleHelp("statuspatch",
			"a field's schema default; read by statuspatch to warn about status fields whose omitempty zero value the server would default back"))
	}
	if into.HelpFor(genclientDef) == nil {
		into.AddHelp(genclientDef, markers.SimpleHelp("statuspatch",
			"marks a type client-gen makes a client for; read by statuspatch like +kubebuilder:object:root"))
	}
	return nil
}

// isRootType reports whether a type is a kind: +kubebuilder:object:root=true,
// or, for APIs written for code-generator,
// +k8s:deepcopy-gen:interfaces=k8s.io/apimachinery/pkg/runtime.Object or a
// bare +genclient.
func isRootType(vals markers.MarkerValues) bool {
	if hasMarker(vals, objectRootMarkerName) {
		return true
	}
	for _, v := range vals[legacyObjectMarkerName] {
		if s, ok := v.(string); ok && s == runtimeObjectPath {
			return true
		}
	}
	return hasMarker(vals, genclientMarkerName)
}

// CheckFilter limits type-checking to what the generator reads: embedded
// fields, the kinds' Status fields and the Conditions and ObservedGeneration
// fields, in root packages only of the declarations a kind reaches (see
// skipUnread and followField). Packages
// referenced only from other fields (specs, mostly) are not type-checked, which
// is most of the work controller-gen's object generator does.
func (Generator) CheckFilter() loader.NodeFilter {
	return func(node ast.Node) bool {
		if _, skip := skipped.Load(node); skip {
			return false
		}
		switch n := node.(type) {
		case *ast.Field:
			return followField(n)
		case *ast.StructType, *ast.FieldList, *ast.StarExpr, *ast.ArrayType,
			*ast.SelectorExpr, *ast.Ident, *ast.ParenExpr:
			return true
		default:
			// interfaces, funcs, maps, chans, generics: nothing we read
			return false
		}
	}
}

// Generate renders the patchers of every root package, then writes all files
// at once. When anything fails, nothing is written.
func (g Generator) Generate(ctx *genall.GenerationContext) error {
	header, err := g.headerText(ctx)
	if err != nil {
		return err
	}
	out := outputFor(ctx.OutputRule)

	var errs errorList
	var results []*pkgKinds
	var all []*kind
	var clean []*loader.Package // roots with no kind: stale files go
	only := listedKinds(g.Kinds)
	for _, root := range ctx.Roots {
		res, err := findKinds(ctx.Collector, ctx.Checker, root, only)
		if err != nil {
			errs.add(err)
			continue
		}
		results = append(results, res)
		if err := findListMaps(ctx.Collector, root, res.kinds); err != nil {
			return err
		}
		if err := findWriteTokens(ctx.Collector, root, res.kinds); err != nil {
			errs.add(err)
		}
		if err := warnOmitemptyDefaults(ctx.Collector, root, res.kinds); err != nil {
			errs.add(err)
		}
		if len(res.kinds) == 0 {
			clean = append(clean, root)
		}
		all = append(all, res.kinds...)
	}
	if err := errs.err(); err != nil {
		return err
	}
	if err := missingKinds(g.Kinds, ctx.Roots, all); err != nil {
		return err
	}
	if err := checkVanished(out, results); err != nil {
		return err
	}
	if len(all) == 0 && !g.AllowNoKinds {
		if err := noKindsError(ctx.Roots, results); err != nil {
			return err
		}
	}

	files, err := render(out, header, all, clean)
	if err != nil {
		return err
	}
	return out.write(files)
}

// headerText reads the header file and substitutes the year.
func (g Generator) headerText(ctx *genall.GenerationContext) (string, error) {
	if g.HeaderFile == "" {
		return "", nil
	}
	b, err := ctx.ReadFile(g.HeaderFile)
	if err != nil {
		return "", fmt.Errorf("read headerFile: %w", err)
	}
	text := string(b)
	if g.Year != "" {
		text = strings.ReplaceAll(text, "YEAR", g.Year)
	}
	return strings.TrimRight(text, "\n"), nil
}

// enabled resolves the opt-out markers for a type: a type-level marker wins
// over a package-level one; the default is true.
func enabled(pkgMarkers markers.MarkerValues, typeMarkers markers.MarkerValues) (on, explicit bool) {
	if v, ok := typeMarkers.Get(generateMarkerName).(bool); ok {
		return v, v
	}
	if v, ok := pkgMarkers.Get(generateMarkerName).(bool); ok {
		return v, false
	}
	return true, false
}

// hasMarker reports whether a marker is present (and not explicitly false).
// It does not depend on the value type, which another generator may define.
func hasMarker(vals markers.MarkerValues, name string) bool {
	v, ok := vals[name]
	if !ok || len(v) == 0 {
		return false
	}
	if b, isBool := v[len(v)-1].(bool); isBool {
		return b
	}
	return true
}

// listedKinds is the set of kinds= names, nil without the option.
func listedKinds(names []string) map[string]bool {
	if len(names) == 0 {
		return nil
	}
	only := make(map[string]bool, len(names))
	for _, n := range names {
		only[n] = true
	}
	return only
}

// missingKinds reports the kinds= names that no package of paths= declares.
func missingKinds(names []string, roots []*loader.Package, found []*kind) error {
	have := make(map[string]bool)
	for _, k := range found {
		have[k.name()] = true
	}
	var missing []string
	for _, n := range names {
		if !have[n] {
			missing = append(missing, n)
		}
	}
	if len(missing) == 0 {
		return nil
	}
	var paths []string
	for _, r := range roots {
		paths = append(paths, r.PkgPath)
	}
	return fmt.Errorf("kinds=%s: no such type in %s", strings.Join(missing, ";"), strings.Join(paths, ", "))
}
