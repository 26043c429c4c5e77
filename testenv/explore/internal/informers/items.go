package informers

import (
	"fmt"
	"reflect"
	"strings"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/apiutil"

	"github.com/statuspatch/statuspatch/testenv/explore/internal/book"
)

// typedItems are the versions served as items of typed lists, each
// converted once: KubeRay lists its Pods several times a reconcile, and
// the conversion from the book's content (FromUnstructured) was a third
// of the explorer's CPU in its search; a deep copy of the typed object
// is a fraction of that.
type typedItems struct {
	m map[typedItem]runtime.Object
}

type typedItem struct {
	key book.Key
	v   int
	rv  string
	t   reflect.Type
}

// item is listItem of k's version v in h, for a typed list from the
// version converted before.
func (ti *typedItems) item(list client.ObjectList, scheme *runtime.Scheme, gvk schema.GroupVersionKind, k book.Key, h *book.History, v int) (runtime.Object, error) {
	switch list.(type) {
	case *unstructured.UnstructuredList, *metav1.PartialObjectMetadataList:
		return listItem(list, scheme, gvk, h.Versions[v])
	}
	key := typedItem{key: k, v: v, rv: h.RVs[v], t: reflect.TypeOf(list)}
	if o, ok := ti.m[key]; ok {
		return o.DeepCopyObject(), nil
	}
	o, err := listItem(list, scheme, gvk, h.Versions[v])
	if err != nil {
		return nil, err
	}
	if ti.m == nil {
		ti.m = map[typedItem]runtime.Object{}
	}
	ti.m[key] = o.DeepCopyObject()
	return o, nil
}

// listItem builds one item of list from a version's content.
func listItem(list client.ObjectList, scheme *runtime.Scheme, gvk schema.GroupVersionKind, content map[string]any) (runtime.Object, error) {
	content = runtime.DeepCopyJSON(content)
	switch list.(type) {
	case *unstructured.UnstructuredList:
		u := &unstructured.Unstructured{Object: content}
		u.SetGroupVersionKind(gvk)
		return u, nil
	case *metav1.PartialObjectMetadataList:
		o := &metav1.PartialObjectMetadata{}
		u := unstructured.Unstructured{Object: content}
		o.ObjectMeta = metav1.ObjectMeta{Name: u.GetName(), Namespace: u.GetNamespace(), Labels: u.GetLabels(), Annotations: u.GetAnnotations(),
			OwnerReferences: u.GetOwnerReferences(), Finalizers: u.GetFinalizers(), ResourceVersion: u.GetResourceVersion(), UID: u.GetUID(),
			Generation: u.GetGeneration(), DeletionTimestamp: u.GetDeletionTimestamp(), CreationTimestamp: u.GetCreationTimestamp()}
		o.SetGroupVersionKind(gvk)
		return o, nil
	}
	o, err := scheme.New(gvk)
	if err != nil {
		return nil, err
	}
	if err := runtime.DefaultUnstructuredConverter.FromUnstructured(content, o); err != nil {
		return nil, err
	}
	return o, nil
}

// ListKind is the kind of a list's items.
func ListKind(list client.ObjectList, scheme *runtime.Scheme) (schema.GroupVersionKind, error) {
	gvk, err := apiutil.GVKForObject(list, scheme)
	if err != nil {
		return gvk, fmt.Errorf("explore: %T: %w", list, err)
	}
	gvk.Kind = strings.TrimSuffix(gvk.Kind, "List")
	return gvk, nil
}
