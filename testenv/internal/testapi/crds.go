// Package testapi holds the CRDs of the testing.statuspatch.dev API used by
// this module's tests and the explorer's: generated into crd/ from the Go
// types, which live in the root module's internal/testapi/v1.
// CRDs returns those CRDs, embedded, so a test in any directory can install
// them without a relative path:
//
//	env := testenv.Start(t, testenv.WithCRDs(testapi.CRDs()...), testenv.WithScheme(scheme))
//
// From testenv/internal/<pkg>, testenv.WithCRDDirectory("../testapi/crd")
// does the same.
package testapi

import (
	"embed"
	"errors"
	"fmt"
	"io"
	"io/fs"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	utilyaml "k8s.io/apimachinery/pkg/util/yaml"
)

//go:embed crd/*.yaml
var crdFiles embed.FS

// CRDs returns fresh copies of the Widget, Gadget and Gizmo CRDs, sorted by file name.
func CRDs() []*apiextensionsv1.CustomResourceDefinition {
	names, err := fs.Glob(crdFiles, "crd/*.yaml")
	if err != nil {
		panic(err)
	}
	var out []*apiextensionsv1.CustomResourceDefinition
	for _, name := range names {
		f, err := crdFiles.Open(name)
		if err != nil {
			panic(err)
		}
		dec := utilyaml.NewYAMLOrJSONDecoder(f, 4096)
		for {
			crd := &apiextensionsv1.CustomResourceDefinition{}
			err := dec.Decode(crd)
			if errors.Is(err, io.EOF) {
				break
			}
			if err != nil {
				panic(fmt.Sprintf("testapi: %s: %v", name, err))
			}
			if crd.Name != "" {
				out = append(out, crd)
			}
		}
		_ = f.Close()
	}
	return out
}
