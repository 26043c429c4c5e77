package patcher

import (
	"context"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/statuspatch/statuspatch/patcher/internal/settle"
)

// crdSchema is the structural schema the server publishes for the object's
// kind and version: the openAPIV3Schema of its CustomResourceDefinition,
// read through the API reader (else the client) when settling needs it to
// explain a difference (a pruned field, a default, a list's type). It is
// read when needed and not kept: a CRD may change between two writes, and
// a schema of the past would explain what the server no longer does. nil
// when it cannot be read (a built-in kind, no permission to read CRDs, no
// such version): the differences only it explains leave the outcome
// Unknown (patcher/internal/settle). The storage version's defaults are
// taken too, where the version read declares none, and its fields: every
// write is pruned to it before it is stored (the write token's field
// too: a CRD whose storage version lacks it stores no token).
func (st *settler[T]) crdSchema(ctx context.Context) *settle.Schema {
	p := st.p
	gvk, err := p.client.GroupVersionKindFor(p.obj)
	if err != nil {
		return nil
	}
	mapper := p.client.RESTMapper()
	if isNil(mapper) {
		return nil
	}
	m, err := mapper.RESTMapping(gvk.GroupKind(), gvk.Version)
	if err != nil || m == nil || m.Resource.Group == "" {
		return nil
	}
	crd := &unstructured.Unstructured{}
	crd.SetGroupVersionKind(schema.GroupVersionKind{Group: "apiextensions.k8s.io", Version: "v1", Kind: "CustomResourceDefinition"})
	if err := p.reader().Get(ctx, client.ObjectKey{Name: m.Resource.Resource + "." + m.Resource.Group}, crd); err != nil {
		return nil
	}
	// The version read, and the storage version: the server defaults what
	// it decodes from etcd with the storage version's schema, then
	// converts it to the version read and defaults it with that one's.
	var root, storage map[string]any
	var storageVersion string
	versions, _, _ := unstructured.NestedSlice(crd.Object, "spec", "versions")
	for _, v := range versions {
		vm, _ := v.(map[string]any)
		s, _, _ := unstructured.NestedMap(vm, "schema", "openAPIV3Schema")
		if name, _ := vm["name"].(string); name == gvk.Version {
			root = s
		} else if stored, _ := vm["storage"].(bool); stored {
			storage, storageVersion = s, name
		}
	}
	s := settle.NewSchema(root)
	if s != nil {
		s.CRD = crd.GetName()
	}
	return s.WithStorage(storageVersion, storage)
}
