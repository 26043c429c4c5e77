// Package v1 is a minimal stub of k8s.io/client-go/applyconfigurations/core/v1
// for analysistest: setters of applyconfiguration-gen's three forms, as
// client-go v0.36.3 has them (ResourceList is corev1.ResourceList there,
// a named map; simplified to strings here).
package v1

type ResourceList map[string]string

type PersistentVolumeClaimApplyConfiguration struct {
	Labels map[string]string
	Spec   *PersistentVolumeClaimSpecApplyConfiguration
}

func PersistentVolumeClaim() *PersistentVolumeClaimApplyConfiguration {
	return &PersistentVolumeClaimApplyConfiguration{}
}

func (b *PersistentVolumeClaimApplyConfiguration) WithLabels(entries map[string]string) *PersistentVolumeClaimApplyConfiguration {
	if b.Labels == nil && len(entries) > 0 {
		b.Labels = make(map[string]string, len(entries))
	}
	for k, v := range entries {
		b.Labels[k] = v
	}
	return b
}

func (b *PersistentVolumeClaimApplyConfiguration) WithSpec(value *PersistentVolumeClaimSpecApplyConfiguration) *PersistentVolumeClaimApplyConfiguration {
	b.Spec = value
	return b
}

type PersistentVolumeClaimSpecApplyConfiguration struct {
	AccessModes      []string
	StorageClassName *string
	Resources        *VolumeResourceRequirementsApplyConfiguration
}

func PersistentVolumeClaimSpec() *PersistentVolumeClaimSpecApplyConfiguration {
	return &PersistentVolumeClaimSpecApplyConfiguration{}
}

func (b *PersistentVolumeClaimSpecApplyConfiguration) WithAccessModes(values ...string) *PersistentVolumeClaimSpecApplyConfiguration {
	for i := range values {
		b.AccessModes = append(b.AccessModes, values[i])
	}
	return b
}

func (b *PersistentVolumeClaimSpecApplyConfiguration) WithStorageClassName(value string) *PersistentVolumeClaimSpecApplyConfiguration {
	b.StorageClassName = &value
	return b
}

func (b *PersistentVolumeClaimSpecApplyConfiguration) WithResources(value *VolumeResourceRequirementsApplyConfiguration) *PersistentVolumeClaimSpecApplyConfiguration {
	b.Resources = value
	return b
}

type VolumeResourceRequirementsApplyConfiguration struct {
	Requests *ResourceList
}

func VolumeResourceRequirements() *VolumeResourceRequirementsApplyConfiguration {
	return &VolumeResourceRequirementsApplyConfiguration{}
}

func (b *VolumeResourceRequirementsApplyConfiguration) WithRequests(value ResourceList) *VolumeResourceRequirementsApplyConfiguration {
	b.Requests = &value
	return b
}
