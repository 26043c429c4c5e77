package generator

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"

	gengogen "k8s.io/gengo/v2/generator"
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
// file, with gengo's import tracker (kube naming: metav1, appsv1, ...).
type imports struct {
	tracker *namer.DefaultImportTracker
	local   string            // the generated file's package path
	names   map[string]string // path -> declared package name
}

// newImports returns the imports of a file in package local whose scope
// already declares the reserved identifiers (import names must not shadow
// them).
func newImports(local string, reserved []string) *imports {
	t := gengogen.NewImportTrackerForPackage(local)
	im := &imports{tracker: t, local: local, names: map[string]string{
		contextPath: "context",
		clientPath:  "client",
		patcherPath: "patcher",
		metav1Path:  "v1",
		metaPath:    "meta",
	}}
	t.PrintImport = func(path, name string) string {
		if im.names[path] == name {
			return strconv.Quote(path)
		}
		return name + " " + strconv.Quote(path)
	}
	for _, name := range reserved {
		im.reserve(name)
	}
	return im
}

// versionName matches Kubernetes API version names.
var versionName = regexp.MustCompile(`^v[0-9]+((alpha|beta)[0-9]+)?$`)

// reserve keeps name from being used as an import name. The tracker keeps
// "forbidden" names for invalid types; that is what this uses.
func (im *imports) reserve(name string) {
	im.tracker.IsInvalidType = func(*gengotypes.Type) bool { return true }
	im.tracker.AddType(&gengotypes.Type{Name: gengotypes.Name{Package: name}})
	im.tracker.IsInvalidType = func(*gengotypes.Type) bool { return false }
}

// add records a package and returns its local name ("" for the local package).
func (im *imports) add(path, pkgName string) (name string, err error) {
	if path == im.local {
		return "", nil
	}
	if _, known := im.names[path]; !known && pkgName != "" {
		im.names[path] = pkgName
	}
	defer func() {
		// the tracker panics when every candidate name is taken
		if r := recover(); r != nil {
			err = fmt.Errorf("no import name left for %q: %v", path, r)
		}
	}()
	// Kube convention: a bare version ("v1") is never an import name, so
	// metav1, appsv1 and the like are qualified by their group.
	if leaf := path[strings.LastIndexByte(path, '/')+1:]; versionName.MatchString(leaf) {
		if _, taken := im.tracker.PathOf(leaf); !taken {
			im.reserve(leaf)
		}
	}
	im.tracker.AddSymbol(gengotypes.Name{Package: path})
	return im.tracker.LocalNameOf(path), nil
}

// lines returns the import specs, sorted by path.
func (im *imports) lines() []string { return im.tracker.ImportLines() }
