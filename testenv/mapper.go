package testenv

import (
	"strings"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

// newStaticMapper builds a RESTMapper from CRDs as the server returned them
// (so names are defaulted): every served version of every CRD, with the
// CRD's own plural and singular and its scope. It also maps the
// CustomResourceDefinition kind itself, which every backend serves.
//
// The embedded server has no /apis discovery root, so discovery-based mappers
// cannot be used; this one never talks to the server.
func newStaticMapper(crds []*apiextensionsv1.CustomResourceDefinition) meta.RESTMapper {
	var gvs []schema.GroupVersion
	for _, crd := range crds {
		for _, v := range crd.Spec.Versions {
			if v.Served {
				gvs = append(gvs, schema.GroupVersion{Group: crd.Spec.Group, Version: v.Name})
			}
		}
	}
	gvs = append(gvs, apiextensionsv1.SchemeGroupVersion)
	m := meta.NewDefaultRESTMapper(gvs)

	crdGVK := apiextensionsv1.SchemeGroupVersion.WithKind("CustomResourceDefinition")
	m.AddSpecific(crdGVK,
		apiextensionsv1.SchemeGroupVersion.WithResource("customresourcedefinitions"),
		apiextensionsv1.SchemeGroupVersion.WithResource("customresourcedefinition"),
		meta.RESTScopeRoot)

	for _, crd := range crds {
		names := crd.Spec.Names
		singular := names.Singular
		if singular == "" {
			singular = strings.ToLower(names.Kind)
		}
		scope := meta.RESTScopeNamespace
		if crd.Spec.Scope == apiextensionsv1.ClusterScoped {
			scope = meta.RESTScopeRoot
		}
		for _, v := range crd.Spec.Versions {
			if !v.Served {
				continue
			}
			gv := schema.GroupVersion{Group: crd.Spec.Group, Version: v.Name}
			m.AddSpecific(gv.WithKind(names.Kind), gv.WithResource(names.Plural), gv.WithResource(singular), scope)
		}
	}
	return m
}
