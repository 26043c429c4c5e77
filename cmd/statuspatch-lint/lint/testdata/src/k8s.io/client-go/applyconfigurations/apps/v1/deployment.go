// Package v1 is a minimal stub of k8s.io/client-go/applyconfigurations/apps/v1
// for the command's tests (stubRealmod): the Deployment builders
// testdata/realmod's code uses, in client-go's shape (the metadata
// builders are methods of the kind's configuration, over an embedded
// *ObjectMetaApplyConfiguration).
package v1

import metav1 "k8s.io/client-go/applyconfigurations/meta/v1"

type DeploymentApplyConfiguration struct {
	metav1.TypeMetaApplyConfiguration    `json:",inline"`
	*metav1.ObjectMetaApplyConfiguration `json:"metadata,omitempty"`
	Status                               *DeploymentStatusApplyConfiguration `json:"status,omitempty"`
}

func Deployment(name, namespace string) *DeploymentApplyConfiguration {
	b := &DeploymentApplyConfiguration{}
	b.WithName(name)
	b.WithNamespace(namespace)
	b.WithKind("Deployment")
	b.WithAPIVersion("apps/v1")
	return b
}

func (b DeploymentApplyConfiguration) IsApplyConfiguration() {}

func (b *DeploymentApplyConfiguration) WithKind(value string) *DeploymentApplyConfiguration {
	b.TypeMetaApplyConfiguration.Kind = &value
	return b
}

func (b *DeploymentApplyConfiguration) WithAPIVersion(value string) *DeploymentApplyConfiguration {
	b.TypeMetaApplyConfiguration.APIVersion = &value
	return b
}

func (b *DeploymentApplyConfiguration) WithName(value string) *DeploymentApplyConfiguration {
	b.ensureObjectMetaApplyConfigurationExists()
	b.ObjectMetaApplyConfiguration.Name = &value
	return b
}

func (b *DeploymentApplyConfiguration) WithNamespace(value string) *DeploymentApplyConfiguration {
	b.ensureObjectMetaApplyConfigurationExists()
	b.ObjectMetaApplyConfiguration.Namespace = &value
	return b
}

func (b *DeploymentApplyConfiguration) WithResourceVersion(value string) *DeploymentApplyConfiguration {
	b.ensureObjectMetaApplyConfigurationExists()
	b.ObjectMetaApplyConfiguration.ResourceVersion = &value
	return b
}

func (b *DeploymentApplyConfiguration) ensureObjectMetaApplyConfigurationExists() {
	if b.ObjectMetaApplyConfiguration == nil {
		b.ObjectMetaApplyConfiguration = &metav1.ObjectMetaApplyConfiguration{}
	}
}

func (b *DeploymentApplyConfiguration) WithStatus(value *DeploymentStatusApplyConfiguration) *DeploymentApplyConfiguration {
	b.Status = value
	return b
}

type DeploymentStatusApplyConfiguration struct {
	Replicas *int32 `json:"replicas,omitempty"`
}

func DeploymentStatus() *DeploymentStatusApplyConfiguration {
	return &DeploymentStatusApplyConfiguration{}
}

func (b *DeploymentStatusApplyConfiguration) WithReplicas(value int32) *DeploymentStatusApplyConfiguration {
	b.Replicas = &value
	return b
}
