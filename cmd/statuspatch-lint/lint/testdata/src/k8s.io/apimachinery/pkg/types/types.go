// Package types is a minimal stub of k8s.io/apimachinery/pkg/types for analysistest.
package types

type PatchType string

const (
	JSONPatchType           PatchType = "application/json-patch+json"
	MergePatchType          PatchType = "application/merge-patch+json"
	StrategicMergePatchType PatchType = "application/strategic-merge-patch+json"
	ApplyPatchType          PatchType = "application/apply-patch+yaml"
)

type NamespacedName struct {
	Namespace string
	Name      string
}
