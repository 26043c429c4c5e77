// Package ac is a subset of the apply configurations controller-gen
// generates for Widget (applyconfiguration paths=./api/...).
package ac

import (
	metav1 "k8s.io/client-go/applyconfigurations/meta/v1"
)

type WidgetApplyConfiguration struct {
	metav1.TypeMetaApplyConfiguration    `json:",inline"`
	*metav1.ObjectMetaApplyConfiguration `json:"metadata,omitempty"`
	Status                               *WidgetStatusApplyConfiguration `json:"status,omitempty"`
}

func Widget(name, namespace string) *WidgetApplyConfiguration {
	b := &WidgetApplyConfiguration{ObjectMetaApplyConfiguration: &metav1.ObjectMetaApplyConfiguration{}}
	b.Name = &name
	b.Namespace = &namespace
	return b
}

func (b WidgetApplyConfiguration) IsApplyConfiguration() {}

func (b *WidgetApplyConfiguration) WithResourceVersion(value string) *WidgetApplyConfiguration {
	b.ResourceVersion = &value
	return b
}

func (b *WidgetApplyConfiguration) WithStatus(value *WidgetStatusApplyConfiguration) *WidgetApplyConfiguration {
	b.Status = value
	return b
}

type WidgetStatusApplyConfiguration struct {
	Ready *bool `json:"ready,omitempty"`
	Size  *int  `json:"size,omitempty"`
}

func WidgetStatus() *WidgetStatusApplyConfiguration { return &WidgetStatusApplyConfiguration{} }

func (b *WidgetStatusApplyConfiguration) WithReady(value bool) *WidgetStatusApplyConfiguration {
	b.Ready = &value
	return b
}

func (b *WidgetStatusApplyConfiguration) WithSize(value int) *WidgetStatusApplyConfiguration {
	b.Size = &value
	return b
}
