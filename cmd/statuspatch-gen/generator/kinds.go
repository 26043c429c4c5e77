package generator

import (
	"errors"
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"sort"

	"golang.org/x/tools/go/packages"
	"sigs.k8s.io/controller-tools/pkg/loader"
	"sigs.k8s.io/controller-tools/pkg/markers"
)

// kind is a root type that gets a status patcher.
type kind struct {
	pkg      *loader.Package
	obj      *types.TypeName // the kind's type
	pos      token.Pos       // of the type's name
	status   types.Type      // the status struct type (the element type for a pointer field)
	statusAt token.Pos       // of the Status field
	// statusPointer is set for a `Status *S` field.
	statusPointer bool
	helpers
	// diffFields are the status fields of the generated diff; hasDiff is
	// false when the status cannot have one (see statusDiffFields).
	diffFields []diffField
	hasDiff    bool
	// apply: +statuspatch:apply, with the status's +listType=map lists
	// (see applymode.go).
	apply    bool
	listMaps []listMap
	// writeToken: the Go name of the +statuspatch:writeToken status
	// field, or "" (see writetoken.go).
	writeToken string
	// storage: +kubebuilder:storageversion (see resolveVersions).
	storage bool
}

func (k *kind) name() string { return k.obj.Name() }

// candidate is a type declaration that asks for a patcher, before type
// information is looked at.
type candidate struct {
	info     *markers.TypeInfo
	explicit bool // +statuspatch:generate=true on the type, or named by kinds=
	listed   bool // named by kinds=
}

// pkgKinds is what one root package yields: its kinds, sorted by name, and
// the types declared in it that get no patcher, with why.
type pkgKinds struct {
	pkg     *loader.Package
	kinds   []*kind
	skipped map[string]skip
}

// skip is why a type gets no patcher. optedOut: +statuspatch:generate=false
// on the type or its package, a deliberate choice.
type skip struct {
	pos      token.Pos
	why      string
	optedOut bool
}

// findKinds returns the kinds of root, or the errors that stop generation
// for it.
// With only (the kinds= option), the types it names are the candidates,
// whatever their markers.
func findKinds(col *markers.Collector, checker *loader.TypeChecker, root *loader.Package, only map[string]bool) (*pkgKinds, error) {
	res := &pkgKinds{pkg: root, skipped: make(map[string]skip)}
	if err := checkMarkerNames(root); err != nil {
		return nil, err
	}
	cands, markerErr, policyErr := candidates(col, root, res.skipped, only)
	if markerErr != nil || policyErr != nil {
		root.NeedTypesInfo() // for the file set of the marker positions
		var errs errorList
		errs.add(markerError(root, markerErr))
		errs.add(loaderError(root, "", policyErr))
		return nil, errs.err()
	}
	var errs errorList
	for _, e := range root.Errors {
		if e.Kind != packages.TypeError {
			errs.add(packageError(root, e))
		}
	}
	if len(cands) == 0 || len(errs) > 0 {
		return res, errs.err()
	}

	if checker != nil {
		skipUnread(root, cands)
		checker.Check(root)
	}
	root.NeedTypesInfo()
	typeErrs := typeErrorsByLine(root)

	for _, c := range cands {
		k, err := kindFor(root, c, typeErrs)
		switch {
		case err != nil:
			errs.add(err)
		case k == nil:
			res.skipped[c.info.Name] = skip{pos: c.info.RawSpec.Name.Pos(), why: "it has no Status field"}
		default:
			res.kinds = append(res.kinds, k)
		}
	}
	if err := errs.err(); err != nil {
		return nil, err
	}
	sort.Slice(res.kinds, func(i, j int) bool { return res.kinds[i].name() < res.kinds[j].name() })
	return res, nil
}

// candidates applies the marker policy: root types with a status subresource,
// unless opted out on the type or the package; +statuspatch:generate=true on a
// type that is not such a root type is an error. The other types go to
// skipped. Marker syntax errors and policy errors come back separately.
func candidates(col *markers.Collector, root *loader.Package, skipped map[string]skip, only map[string]bool) (_ []candidate, markerErr, policyErr error) {
	pkgMarkers, err := markers.PackageMarkers(col, root)
	if err != nil {
		return nil, err, nil
	}
	var out []candidate
	var errs errorList
	err = markers.EachType(col, root, func(info *markers.TypeInfo) {
		pos := info.RawSpec.Name.Pos()
		if only != nil {
			if only[info.Name] {
				out = append(out, candidate{info: info, explicit: true, listed: true})
			} else {
				skipped[info.Name] = skip{pos: pos, optedOut: true}
			}
			return
		}
		on, explicit := enabled(pkgMarkers, info.Markers)
		if !on {
			skipped[info.Name] = skip{pos: pos, optedOut: true}
			return
		}
		isRoot := isRootType(info.Markers)
		hasStatus := hasMarker(info.Markers, statusSubresourceMarker)
		switch {
		case explicit && !isRoot:
			errs.add(loader.ErrFromNode(fmt.Errorf("+%s=true on %s, which is not a root type (+%s=true)", generateMarkerName, info.Name, objectRootMarkerName), info.RawSpec))
		case explicit && !hasStatus:
			errs.add(loader.ErrFromNode(fmt.Errorf("+%s=true on %s, which has no status subresource (+%s)", generateMarkerName, info.Name, statusSubresourceMarker), info.RawSpec))
		case isRoot && hasStatus:
			out = append(out, candidate{info: info, explicit: explicit})
		case !isRoot:
			skipped[info.Name] = skip{pos: pos, why: fmt.Sprintf("it is not a root type (no +%s=true)", objectRootMarkerName)}
		default:
			skipped[info.Name] = skip{pos: pos, why: fmt.Sprintf("it has no status subresource (no +%s)", statusSubresourceMarker)}
		}
	})
	if err != nil {
		return nil, err, nil
	}
	if len(errs) > 0 {
		return nil, nil, loader.ErrList(errs)
	}
	return out, nil, nil
}

// kindFor checks a candidate against its type information. It returns nil,
// nil for a kind without a Status field that did not ask for a patcher.
func kindFor(root *loader.Package, c candidate, typeErrs map[lineKey][]string) (*kind, error) {
	fset := root.Fset
	spec := c.info.RawSpec
	name := spec.Name.Name
	at := func(pos token.Pos, format string, args ...any) error { return errorAt(fset, pos, format, args...) }
	optOut := fmt.Sprintf("(add +%s=false to %s to skip it)", generateMarkerName, name)

	if !ast.IsExported(name) {
		return nil, at(spec.Name.Pos(), "kind %s is unexported; a status patcher needs an exported type %s", name, optOut)
	}
	if spec.TypeParams != nil {
		return nil, at(spec.Name.Pos(), "kind %s is generic; status patchers need a concrete type %s", name, optOut)
	}
	obj, _ := root.Types.Scope().Lookup(name).(*types.TypeName)
	if obj == nil {
		return nil, at(spec.Name.Pos(), "kind %s: no type information", name)
	}
	st, _ := obj.Type().Underlying().(*types.Struct)
	var field *types.Var
	for f := range fieldsOf(st) {
		if f.Name() == "Status" && !f.Embedded() {
			field = f
		}
	}
	if field == nil {
		if c.listed {
			return nil, at(spec.Name.Pos(), "kinds=%s: %s has no Status field", name, name)
		}
		if c.explicit {
			return nil, at(spec.Name.Pos(), "+%s=true on %s, which has no Status field", generateMarkerName, name)
		}
		return nil, nil
	}
	if msgs := typeErrs[lineOf(fset, field.Pos())]; len(msgs) > 0 {
		return nil, at(field.Pos(), "%s.Status: %s", name, msgs[0])
	}

	k := &kind{pkg: root, obj: obj, pos: spec.Name.Pos(), statusAt: field.Pos(), apply: applyEnabled(c.info.Markers), storage: hasMarker(c.info.Markers, storageVersionMarker)}
	t := types.Unalias(field.Type())
	if ptr, ok := t.(*types.Pointer); ok {
		k.statusPointer = true
		t = types.Unalias(ptr.Elem())
	}
	if t == types.Typ[types.Invalid] {
		return nil, at(field.Pos(), "%s.Status: cannot resolve its type", name)
	}
	if _, ok := t.Underlying().(*types.Struct); !ok {
		return nil, at(field.Pos(), "%s.Status has type %s, want a struct or a pointer to a struct %s",
			name, types.TypeString(field.Type(), types.RelativeTo(root.Types)), optOut)
	}
	if n, ok := t.(*types.Named); ok && n.TypeArgs().Len() > 0 {
		return nil, at(field.Pos(), "%s.Status has generic type %s %s", name, types.TypeString(t, types.RelativeTo(root.Types)), optOut)
	}
	k.status = t
	if err := checkHelperFields(fset, name, t, typeErrs); err != nil {
		return nil, err
	}
	k.helpers = helpersFor(t, root.Types)
	k.diffFields, k.hasDiff = statusDiffFields(t, root.Types)
	return k, nil
}

// fieldsOf iterates over the fields of st (none for a nil st).
func fieldsOf(st *types.Struct) func(func(*types.Var) bool) {
	return func(yield func(*types.Var) bool) {
		if st == nil {
			return
		}
		for i := range st.NumFields() {
			if !yield(st.Field(i)) {
				return
			}
		}
	}
}

// lineKey identifies a source line.
type lineKey struct {
	file string
	line int
}

func lineOf(fset *token.FileSet, pos token.Pos) lineKey {
	p := fset.Position(pos)
	return lineKey{p.Filename, p.Line}
}

// typeErrorsByLine indexes the type errors of root by line. The partial type
// checker leaves packages that no interesting field references unchecked, so
// type errors elsewhere (spec fields, variables) are expected; only those on
// the lines the generator reads are reported.
func typeErrorsByLine(root *loader.Package) map[lineKey][]string {
	out := make(map[lineKey][]string)
	for _, e := range root.Errors {
		if e.Kind != packages.TypeError {
			continue
		}
		file, line := splitPos(e.Pos)
		k := lineKey{file, line}
		out[k] = append(out[k], e.Msg)
	}
	return out
}

// checkHelperFields reports type errors on the fields of a status struct the
// generator reads, when the struct is declared in a root package.
func checkHelperFields(fset *token.FileSet, kindName string, status types.Type, typeErrs map[lineKey][]string) error {
	st, _ := status.Underlying().(*types.Struct)
	for f := range fieldsOf(st) {
		if !f.Embedded() && f.Name() != "Conditions" && f.Name() != "ObservedGeneration" {
			continue
		}
		if msgs := typeErrs[lineOf(fset, f.Pos())]; len(msgs) > 0 {
			return errorAt(fset, f.Pos(), "%s status field %s: %s", kindName, f.Name(), msgs[0])
		}
	}
	return nil
}

// packageError converts a go/packages error (list, parse) to a file:line error.
func packageError(root *loader.Package, e packages.Error) error {
	pos := e.Pos
	if pos == "" || pos == "-" {
		return fmt.Errorf("%s: %s", root.PkgPath, e.Msg)
	}
	if file, line := splitPos(pos); line == 0 && file == root.ID+":-" {
		return fmt.Errorf("%s: %s", root.PkgPath, e.Msg)
	}
	return errorAtPosString(pos, errors.New(e.Msg))
}

// loaderError converts errors positioned against the loader's file set (from
// the marker collector) to file:line errors, prefixing their messages.
func loaderError(root *loader.Package, prefix string, err error) error {
	if err == nil {
		return nil
	}
	var list loader.ErrList
	if errors.As(err, &list) {
		var errs errorList
		for _, e := range list {
			errs.add(loaderError(root, prefix, e))
		}
		return errs.err()
	}
	var pe loader.PositionedError
	if errors.As(err, &pe) && root.Fset != nil {
		p := root.Fset.Position(pe.Pos)
		return &posError{file: p.Filename, line: p.Line, err: errors.New(prefix + pe.Error())}
	}
	return fmt.Errorf("%s: %s%w", root.PkgPath, prefix, err)
}
