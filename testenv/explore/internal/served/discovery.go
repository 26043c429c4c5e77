package served

import (
	"slices"
	"strings"

	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

// Discovery through the manager's config (restconfig.go): what a
// RESTMapper built from it (cache.New or client.New without Options.Mapper
// makes one) asks, answered from the scheme's kinds the backend's mapper
// maps: the groups (/api, /apis) and each group version's resources. Only
// the legacy documents: a client that asks for aggregated discovery takes
// them, as it does from an API server that does not aggregate.

// discovery answers from a scheme's kinds that mapper maps.
type discovery struct {
	mapper meta.RESTMapper
	scheme *runtime.Scheme
}

// answer answers a discovery Request for path; false: path is not one.
func (d discovery) answer(path string) (any, bool) {
	parts := strings.Split(strings.Trim(path, "/"), "/")
	switch {
	case len(parts) == 1 && parts[0] == "api":
		return metav1.APIVersions{TypeMeta: metav1.TypeMeta{Kind: "APIVersions"}, Versions: d.versionsOf("")}, true
	case len(parts) == 1 && parts[0] == "apis":
		out := metav1.APIGroupList{TypeMeta: metav1.TypeMeta{Kind: "APIGroupList", APIVersion: "v1"}}
		for _, g := range d.groups() {
			if g != "" {
				out.Groups = append(out.Groups, d.group(g))
			}
		}
		return out, true
	case len(parts) == 2 && parts[0] == "apis":
		return d.group(parts[1]), true
	case len(parts) == 2 && parts[0] == "api":
		return d.resources(schema.GroupVersion{Version: parts[1]}), true
	case len(parts) == 3 && parts[0] == "apis":
		return d.resources(schema.GroupVersion{Group: parts[1], Version: parts[2]}), true
	}
	return nil, false
}

// mapped is every kind of the scheme the backend's mapper maps, sorted.
func (d discovery) mapped() []*meta.RESTMapping {
	var out []*meta.RESTMapping
	for gvk := range d.scheme.AllKnownTypes() {
		if gvk.Version == runtime.APIVersionInternal || strings.HasSuffix(gvk.Kind, "List") {
			continue
		}
		m, err := d.mapper.RESTMapping(gvk.GroupKind(), gvk.Version)
		if err != nil || m.GroupVersionKind != gvk {
			continue
		}
		out = append(out, m)
	}
	slices.SortFunc(out, func(a, b *meta.RESTMapping) int {
		return strings.Compare(a.GroupVersionKind.String(), b.GroupVersionKind.String())
	})
	return out
}

func (d discovery) groups() []string {
	var out []string
	for _, m := range d.mapped() {
		if !slices.Contains(out, m.GroupVersionKind.Group) {
			out = append(out, m.GroupVersionKind.Group)
		}
	}
	return out
}

func (d discovery) versionsOf(group string) []string {
	var out []string
	for _, m := range d.mapped() {
		if gvk := m.GroupVersionKind; gvk.Group == group && !slices.Contains(out, gvk.Version) {
			out = append(out, gvk.Version)
		}
	}
	return out
}

func (d discovery) group(name string) metav1.APIGroup {
	g := metav1.APIGroup{TypeMeta: metav1.TypeMeta{Kind: "APIGroup", APIVersion: "v1"}, Name: name}
	for _, v := range d.versionsOf(name) {
		g.Versions = append(g.Versions, metav1.GroupVersionForDiscovery{GroupVersion: schema.GroupVersion{Group: name, Version: v}.String(), Version: v})
	}
	if len(g.Versions) > 0 {
		g.PreferredVersion = g.Versions[0]
	}
	return g
}

func (d discovery) resources(gv schema.GroupVersion) metav1.APIResourceList {
	out := metav1.APIResourceList{TypeMeta: metav1.TypeMeta{Kind: "APIResourceList", APIVersion: "v1"}, GroupVersion: gv.String()}
	for _, m := range d.mapped() {
		if m.GroupVersionKind.GroupVersion() != gv {
			continue
		}
		out.APIResources = append(out.APIResources, metav1.APIResource{
			Name: m.Resource.Resource, SingularName: strings.ToLower(m.GroupVersionKind.Kind),
			Namespaced: m.Scope.Name() == meta.RESTScopeNameNamespace, Kind: m.GroupVersionKind.Kind,
			Verbs: metav1.Verbs{"create", "delete", "get", "list", "patch", "update", "watch"},
		})
	}
	return out
}
