package generator

import (
	"go/token"
	"regexp"
	"strconv"
	"strings"

	"k8s.io/gengo/v2/namer"
	gengotypes "k8s.io/gengo/v2/types"
)

// Import paths of the packages generated code uses.
const (
	contextPath = "context"
	clientPath  = "sigs.k8s.io/controller-runtime/pkg/client"
	patcherPath = "github.com/statuspatch/statuspatch/patcher"
	metaPath    = "k8s.io/apimachinery/pkg/api/meta"
)

// imports assigns collision-free local names to the packages of one generated
// file. gengo's import tracker records the choices and prints the import
// lines; the names come from localName, set as the tracker's LocalName.
type imports struct {
	tracker  *namer.DefaultImportTracker
	local    string            // the generated file's package path
	names    map[string]string // path -> declared package name
	reserved map[string]bool   // identifiers of the file's package scope
}

// newImports returns the imports of a file in package local whose scope
// already declares the reserved identifiers (import names must not shadow
// them).
func newImports(local string, reserved []string) *imports {
	t := namer.NewDefaultImportTracker(gengotypes.Name{Package: local})
	im := &imports{tracker: &t, local: local, reserved: make(map[string]bool), names: map[string]string{
		contextPath: "context",
		clientPath:  "client",
		patcherPath: "patcher",
		metav1Path:  "v1",
		metaPath:    "meta",
	}}
	// The leaf of the file's own package is not used either: an imported
	// "v1" in package v1 reads as the local package.
	im.reserved[local[strings.LastIndexByte(local, '/')+1:]] = true
	for _, name := range reserved {
		im.reserved[name] = true
	}
	t.IsInvalidType = func(*gengotypes.Type) bool { return false }
	t.LocalName = im.localName
	t.PrintImport = func(path, name string) string {
		if im.names[path] == name {
			return strconv.Quote(path)
		}
		return name + " " + strconv.Quote(path)
	}
	return im
}

// versionName matches Kubernetes API version names.
var versionName = regexp.MustCompile(`^v[0-9]+((alpha|beta)[0-9]+)?$`)

// localName picks the import name of a package with the kube convention that
// gengo's Go import tracker uses: the shortest suffix of the path's elements,
// joined without separators ("client", then "metav1", "appsv1"), that is free.
// A bare version ("v1") is never used, nor a reserved identifier. When every
// suffix is taken, a number is appended.
func (im *imports) localName(n gengotypes.Name) string {
	path := n.Package
	free := func(name string) bool {
		_, taken := im.tracker.PathOf(name)
		return !taken && !im.reserved[name]
	}
	dirs := strings.Split(path, "/")
	var name string
	for i := len(dirs) - 1; i >= 0; i-- {
		name = strings.NewReplacer("_", "", ".", "", "-", "").Replace(strings.Join(dirs[i:], ""))
		if token.IsKeyword(name) {
			name = "_" + name
		}
		if i == len(dirs)-1 && versionName.MatchString(name) {
			continue
		}
		if name != "" && free(name) {
			return name
		}
	}
	for i := 2; ; i++ {
		if c := name + strconv.Itoa(i); free(c) {
			return c
		}
	}
}

// add records a package and returns its local name ("" for the local package).
func (im *imports) add(path, pkgName string) string {
	if path == im.local {
		return ""
	}
	if _, known := im.names[path]; !known && pkgName != "" {
		im.names[path] = pkgName
	}
	im.tracker.AddSymbol(gengotypes.Name{Package: path})
	return im.tracker.LocalNameOf(path)
}

// lines returns the import specs, sorted by path.
func (im *imports) lines() []string { return im.tracker.ImportLines() }
