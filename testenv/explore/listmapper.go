package explore

import (
	"strings"

	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

// listKinds is the manager's RESTMapper: the backend's, which maps a
// kind's list kind (GizmoList) where a discovery mapper does (it adds
// KindList for every kind it lists) and a static one may not (testenv's).
// controller-runtime asks for it: a namespace-scoped cache's List asks
// whether the list's kind is namespaced.
type listKinds struct{ meta.RESTMapper }

func (m listKinds) RESTMapping(gk schema.GroupKind, versions ...string) (*meta.RESTMapping, error) {
	rm, err := m.RESTMapper.RESTMapping(gk, versions...)
	kind, isList := strings.CutSuffix(gk.Kind, "List")
	if err == nil || !isList || kind == "" || !meta.IsNoMatchError(err) {
		return rm, err
	}
	item, ierr := m.RESTMapper.RESTMapping(schema.GroupKind{Group: gk.Group, Kind: kind}, versions...)
	if ierr != nil {
		return nil, err
	}
	out := *item
	out.GroupVersionKind.Kind = gk.Kind
	return &out, nil
}
