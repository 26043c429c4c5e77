// Package schema is a minimal stub of k8s.io/apimachinery/pkg/runtime/schema for analysistest.
package schema

type GroupVersion struct {
	Group   string
	Version string
}

func (gv GroupVersion) String() string { return gv.Group + "/" + gv.Version }

func (gv GroupVersion) WithKind(kind string) GroupVersionKind {
	return GroupVersionKind{Group: gv.Group, Version: gv.Version, Kind: kind}
}

type GroupVersionKind struct {
	Group   string
	Version string
	Kind    string
}
