// Package v1 is a minimal stub of k8s.io/apimachinery/pkg/apis/meta/v1 for analysistest.
package v1

type Object interface {
	GetName() string
	GetNamespace() string
	GetResourceVersion() string
	SetResourceVersion(version string)
	GetFinalizers() []string
	SetFinalizers(finalizers []string)
}

type TypeMeta struct {
	Kind       string
	APIVersion string
}

type ObjectMeta struct {
	Name              string
	Namespace         string
	ResourceVersion   string
	Generation        int64
	Finalizers        []string
	Labels            map[string]string
	DeletionTimestamp *Time
}

// ListMeta is what every List type embeds (its items are its Items).
type ListMeta struct {
	ResourceVersion string
	Continue        string
}

func (m *ListMeta) GetResourceVersion() string        { return m.ResourceVersion }
func (m *ListMeta) SetResourceVersion(version string) { m.ResourceVersion = version }
func (m *ListMeta) GetContinue() string               { return m.Continue }
func (m *ListMeta) SetContinue(c string)              { m.Continue = c }

// Time is a timestamp; its methods read it.
type Time struct{ Seconds int64 }

func (t *Time) IsZero() bool { return t == nil || t.Seconds == 0 }

func (m *ObjectMeta) GetName() string                   { return m.Name }
func (m *ObjectMeta) GetNamespace() string              { return m.Namespace }
func (m *ObjectMeta) GetResourceVersion() string        { return m.ResourceVersion }
func (m *ObjectMeta) SetResourceVersion(version string) { m.ResourceVersion = version }
func (m *ObjectMeta) GetGeneration() int64              { return m.Generation }
func (m *ObjectMeta) GetFinalizers() []string           { return m.Finalizers }
func (m *ObjectMeta) SetFinalizers(finalizers []string) { m.Finalizers = finalizers }
func (m *ObjectMeta) GetLabels() map[string]string      { return m.Labels }
func (m *ObjectMeta) GetDeletionTimestamp() *Time       { return m.DeletionTimestamp }

type Condition struct {
	Type               string
	Status             string
	Reason             string
	ObservedGeneration int64
}

type ConditionStatus string

const ConditionTrue ConditionStatus = "True"

// IsControlledBy reads both objects (the stub compares names).
func IsControlledBy(obj Object, owner Object) bool { return obj.GetName() == owner.GetName() }

type OwnerReference struct{ Name string }

// NewControllerRef reads the owner's name.
func NewControllerRef(owner Object, kind string) *OwnerReference {
	return &OwnerReference{Name: owner.GetName()}
}
