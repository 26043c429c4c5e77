package testenv

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
)

// basesDir is the subdirectory of kubebuilder's config/crd that holds the
// CRDs controller-gen writes; ReadCRDDirectory follows it.
const basesDir = "bases"

// ReadCRDDirectory reads every CustomResourceDefinition from the .yaml, .yml
// and .json files directly inside dir, in file-name order, and from its
// subdirectory bases/ if there is one: a directory laid out as kubebuilder
// scaffolds config/crd (kustomization.yaml and kustomizeconfig.yaml beside
// bases/) reads as its bases/. Files may hold several YAML documents.
//
// A file without any CustomResourceDefinition (kustomization.yaml,
// kustomizeconfig.yaml) is skipped; a file that mixes them with other
// documents is an error naming the file and the document's position in it,
// as is a CustomResourceDefinition that is not apiextensions.k8s.io/v1.
// Other subdirectories (kubebuilder's patches/) are not read. A directory
// without any CustomResourceDefinition is an error that lists what was read
// (it is almost always a wrong path). A relative dir is taken from the
// working directory, which under go test is the test's package directory.
func ReadCRDDirectory(dir string) ([]*apiextensionsv1.CustomResourceDefinition, error) {
	crds, _, err := readCRDDirectory(dir)
	return crds, err
}

// readCRDDirectory is ReadCRDDirectory, also returning one line per file or
// subdirectory looked at: what was read from it, or why it was skipped.
func readCRDDirectory(dir string) ([]*apiextensionsv1.CustomResourceDefinition, []string, error) {
	var files []string
	crds, err := readCRDTree(dir, &files)
	if err != nil {
		return nil, nil, err
	}
	if len(crds) == 0 {
		if len(files) == 0 {
			return nil, nil, fmt.Errorf("testenv: CRD directory %q: no .yaml, .yml or .json files", dir)
		}
		return nil, nil, fmt.Errorf("testenv: CRD directory %q: no CustomResourceDefinition in it (%s)", dir, strings.Join(files, "; "))
	}
	return crds, files, nil
}

// readCRDTree reads dir's manifest files and its bases/ subdirectory,
// appending a line per entry looked at to files.
func readCRDTree(dir string, files *[]string) ([]*apiextensionsv1.CustomResourceDefinition, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, fmt.Errorf("testenv: CRD directory %q: no such directory%s: %w", dir, fromWorkingDir(dir), err)
		}
		return nil, fmt.Errorf("testenv: CRD directory %q: %w", dir, err)
	}
	sort.Slice(entries, func(i, j int) bool { return entries[i].Name() < entries[j].Name() })
	var crds []*apiextensionsv1.CustomResourceDefinition
	var subdirs []string
	for _, e := range entries {
		path := filepath.Join(dir, e.Name())
		switch {
		case e.IsDir() && e.Name() == basesDir:
			subdirs = append(subdirs, path)
		case e.IsDir():
			*files = append(*files, path+"/: skipped, only "+basesDir+"/ is read")
		case isManifest(e.Name()):
			got, line, err := readManifest(path)
			if err != nil {
				return nil, err
			}
			*files = append(*files, line)
			crds = append(crds, got...)
		}
	}
	for _, sub := range subdirs {
		got, err := readCRDTree(sub, files)
		if err != nil {
			return nil, err
		}
		crds = append(crds, got...)
	}
	return crds, nil
}

// readManifest reads the CustomResourceDefinitions of one file of a CRD
// directory, and says what it read or why it skipped the file.
func readManifest(path string) ([]*apiextensionsv1.CustomResourceDefinition, string, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, "", fmt.Errorf("testenv: %s: %w", path, err)
	}
	docs, err := decodeDocuments(data)
	if err != nil {
		return nil, "", fmt.Errorf("testenv: %s: %w", path, err)
	}
	var crds []*apiextensionsv1.CustomResourceDefinition
	var names, others []string
	var firstErr error
	for _, d := range docs {
		switch {
		case d.crd != nil:
			crds = append(crds, d.crd)
			names = append(names, d.crd.Name)
		case d.kind == "":
			others = append(others, "no kind")
		default:
			others = append(others, "kind "+d.kind)
		}
		if d.err != nil && firstErr == nil {
			firstErr = d.err
		}
	}
	switch {
	case len(crds) == 0 && len(docs) == 0:
		return nil, path + ": skipped, empty", nil
	case len(crds) == 0:
		return nil, path + ": skipped, " + strings.Join(others, ", "), nil
	case firstErr != nil:
		return nil, "", fmt.Errorf("testenv: %s: %w", path, firstErr)
	}
	return crds, path + ": " + strings.Join(names, ", "), nil
}

// fromWorkingDir says where a relative path is taken from.
func fromWorkingDir(dir string) string {
	if filepath.IsAbs(dir) {
		return ""
	}
	wd, err := os.Getwd()
	if err != nil {
		return ""
	}
	return fmt.Sprintf(" (relative to the working directory %s, the test's package directory under go test; from kubebuilder's internal/controller, config/crd is ../../config/crd)", wd)
}

func isManifest(name string) bool {
	switch strings.ToLower(filepath.Ext(name)) {
	case ".yaml", ".yml", ".json":
		return true
	}
	return false
}
