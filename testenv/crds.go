package testenv

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"time"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	apiextensionsclient "k8s.io/apiextensions-apiserver/pkg/client/clientset/clientset"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	utilyaml "k8s.io/apimachinery/pkg/util/yaml"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/rest"
	"sigs.k8s.io/yaml"
)

// ReadCRDFile reads the CustomResourceDefinitions in one YAML or JSON file
// (see ReadCRDDirectory). A file that holds no document at all is an error.
func ReadCRDFile(path string) ([]*apiextensionsv1.CustomResourceDefinition, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("testenv: %s: %w", path, err)
	}
	crds, err := decodeCRDs(data)
	if err != nil {
		return nil, fmt.Errorf("testenv: %s: %w", path, err)
	}
	if len(crds) == 0 {
		return nil, fmt.Errorf("testenv: %s: no CustomResourceDefinition in the file", path)
	}
	return crds, nil
}

// document is one non-empty YAML document of a manifest file.
type document struct {
	n    int    // position among the file's non-empty documents, from 1
	kind string // "" when the document has none
	crd  *apiextensionsv1.CustomResourceDefinition
	err  error // why it is not a CustomResourceDefinition (nil for one)
}

// decodeCRDs splits data into YAML documents and decodes each non-empty one;
// any document that is not an apiextensions.k8s.io/v1
// CustomResourceDefinition is an error.
func decodeCRDs(data []byte) ([]*apiextensionsv1.CustomResourceDefinition, error) {
	docs, err := decodeDocuments(data)
	if err != nil {
		return nil, err
	}
	var crds []*apiextensionsv1.CustomResourceDefinition
	for _, d := range docs {
		if d.err != nil {
			return nil, d.err
		}
		crds = append(crds, d.crd)
	}
	return crds, nil
}

// decodeDocuments splits data into YAML documents and decodes the
// CustomResourceDefinitions among them. A malformed document, or a
// CustomResourceDefinition that cannot be installed, is an error; any other
// document is returned with the reason it is not a CustomResourceDefinition.
// Documents are numbered from 1, counting only non-empty ones.
func decodeDocuments(data []byte) ([]document, error) {
	reader := utilyaml.NewYAMLReader(bufio.NewReader(bytes.NewReader(data)))
	var docs []document
	n := 0
	for {
		doc, err := reader.Read()
		if errors.Is(err, io.EOF) {
			return docs, nil
		}
		if err != nil {
			return nil, fmt.Errorf("document %d: %w", n+1, err)
		}
		var probe map[string]any
		if err := yaml.Unmarshal(doc, &probe); err != nil {
			return nil, fmt.Errorf("document %d: malformed YAML: %w", n+1, err)
		}
		if len(probe) == 0 {
			continue // empty, or only comments
		}
		n++
		var tm metav1.TypeMeta
		if err := yaml.Unmarshal(doc, &tm); err != nil {
			return nil, fmt.Errorf("document %d: %w", n, err)
		}
		gv, _ := schema.ParseGroupVersion(tm.APIVersion)
		switch {
		case tm.Kind == "":
			docs = append(docs, document{n: n, err: fmt.Errorf("document %d has no kind, not a CustomResourceDefinition", n)})
			continue
		case tm.Kind != "CustomResourceDefinition" || gv.Group != apiextensionsv1.GroupName:
			docs = append(docs, document{n: n, kind: tm.Kind, err: fmt.Errorf("document %d is kind %s, not a CustomResourceDefinition", n, tm.Kind)})
			continue
		case gv.Version != "v1":
			return nil, fmt.Errorf("document %d is a CustomResourceDefinition of %s; only %s is supported",
				n, tm.APIVersion, apiextensionsv1.SchemeGroupVersion)
		}
		crd := &apiextensionsv1.CustomResourceDefinition{}
		if err := yaml.Unmarshal(doc, crd); err != nil {
			return nil, fmt.Errorf("document %d: %w", n, err)
		}
		if crd.Name == "" {
			return nil, fmt.Errorf("document %d: CustomResourceDefinition has no metadata.name", n)
		}
		docs = append(docs, document{n: n, kind: tm.Kind, crd: crd})
	}
}

// collectCRDs gathers the CRDs of all options, as copies, and rejects
// duplicate names. It also returns the lines of readCRDDirectory: the files
// read and skipped.
func collectCRDs(o options) ([]*apiextensionsv1.CustomResourceDefinition, []string, error) {
	var out []*apiextensionsv1.CustomResourceDefinition
	seen := map[string]bool{}
	add := func(crd *apiextensionsv1.CustomResourceDefinition, from string) error {
		if crd == nil {
			return fmt.Errorf("testenv: %s: nil CustomResourceDefinition", from)
		}
		if crd.Name == "" {
			return fmt.Errorf("testenv: %s: CustomResourceDefinition without a name", from)
		}
		if seen[crd.Name] {
			return fmt.Errorf("testenv: %s: CustomResourceDefinition %q is given twice", from, crd.Name)
		}
		seen[crd.Name] = true
		c := crd.DeepCopy()
		c.ResourceVersion = ""
		c.UID = ""
		c.CreationTimestamp = metav1.Time{}
		c.Status = apiextensionsv1.CustomResourceDefinitionStatus{}
		out = append(out, c)
		return nil
	}
	var files []string
	for _, dir := range o.crdDirs {
		crds, read, err := readCRDDirectory(dir)
		if err != nil {
			return nil, nil, err
		}
		files = append(files, read...)
		for _, crd := range crds {
			if err := add(crd, fmt.Sprintf("CRD directory %q", dir)); err != nil {
				return nil, nil, err
			}
		}
	}
	for _, crd := range o.crds {
		if err := add(crd, "WithCRDs"); err != nil {
			return nil, nil, err
		}
	}
	return out, files, nil
}

// installCRDs creates the CRDs (the embedded backend; envtest installs its
// own) and returns them as the server stored them.
func installCRDs(ctx context.Context, cfg *rest.Config, crds []*apiextensionsv1.CustomResourceDefinition) ([]*apiextensionsv1.CustomResourceDefinition, error) {
	cs, err := apiextensionsclient.NewForConfig(cfg)
	if err != nil {
		return nil, fmt.Errorf("testenv: apiextensions client: %w", err)
	}
	out := make([]*apiextensionsv1.CustomResourceDefinition, 0, len(crds))
	for _, crd := range crds {
		created, err := cs.ApiextensionsV1().CustomResourceDefinitions().Create(ctx, crd, metav1.CreateOptions{})
		if err != nil {
			return nil, fmt.Errorf("testenv: installing CustomResourceDefinition %q: %w", crd.Name, err)
		}
		out = append(out, created)
	}
	return out, nil
}

// waitForCRDs polls until every CRD is Established and each served version
// answers a List with 200. It returns the CRDs as last read from the server.
func waitForCRDs(ctx context.Context, cfg *rest.Config, crds []*apiextensionsv1.CustomResourceDefinition) ([]*apiextensionsv1.CustomResourceDefinition, error) {
	cs, err := apiextensionsclient.NewForConfig(cfg)
	if err != nil {
		return nil, fmt.Errorf("testenv: apiextensions client: %w", err)
	}
	dyn, err := dynamic.NewForConfig(cfg)
	if err != nil {
		return nil, fmt.Errorf("testenv: dynamic client: %w", err)
	}
	out := make([]*apiextensionsv1.CustomResourceDefinition, 0, len(crds))
	for _, crd := range crds {
		name := crd.Name
		var last error
		var current *apiextensionsv1.CustomResourceDefinition
		fatal := false
		ready := func() bool {
			got, err := cs.ApiextensionsV1().CustomResourceDefinitions().Get(ctx, name, metav1.GetOptions{})
			if err != nil {
				last = err
				return false
			}
			current = got
			if c := condition(got, apiextensionsv1.NamesAccepted); c != nil && c.Status == apiextensionsv1.ConditionFalse {
				last = fmt.Errorf("names not accepted: %s: %s", c.Reason, c.Message)
				fatal = true
				return false
			}
			if c := condition(got, apiextensionsv1.Established); c == nil || c.Status != apiextensionsv1.ConditionTrue {
				last = errors.New("not Established yet")
				return false
			}
			for _, v := range got.Spec.Versions {
				if !v.Served {
					continue
				}
				gvr := schema.GroupVersionResource{Group: got.Spec.Group, Version: v.Name, Resource: got.Spec.Names.Plural}
				if _, err := dyn.Resource(gvr).List(ctx, metav1.ListOptions{Limit: 1}); err != nil {
					last = fmt.Errorf("listing %s: %w", gvr, err)
					return false
				}
			}
			return true
		}
		for !ready() {
			if fatal || apierrors.IsForbidden(last) || apierrors.IsUnauthorized(last) {
				return nil, fmt.Errorf("testenv: waiting for CustomResourceDefinition %q: %w", name, last)
			}
			select {
			case <-ctx.Done():
				err := fmt.Errorf("testenv: waiting for CustomResourceDefinition %q to be established and served: %w", name, context.Cause(ctx))
				if last != nil {
					err = fmt.Errorf("%w (last: %w)", err, last)
				}
				return nil, err
			case <-time.After(20 * time.Millisecond):
			}
		}
		out = append(out, current)
	}
	return skipCreateDelay(ctx, cs, dyn, out)
}

func condition(crd *apiextensionsv1.CustomResourceDefinition, t apiextensionsv1.CustomResourceDefinitionConditionType) *apiextensionsv1.CustomResourceDefinitionCondition {
	for i := range crd.Status.Conditions {
		if crd.Status.Conditions[i].Type == t {
			return &crd.Status.Conditions[i]
		}
	}
	return nil
}
