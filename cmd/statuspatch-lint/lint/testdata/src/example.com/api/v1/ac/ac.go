// Package ac holds sample apply configurations (as applyconfiguration-gen would).
package ac

type WidgetStatusApplyConfiguration struct {
	Ready *bool
}

type WidgetApplyConfiguration struct {
	Name            *string
	Namespace       *string
	ResourceVersion *string
	Status          *WidgetStatusApplyConfiguration
}

func (*WidgetApplyConfiguration) IsApplyConfiguration() {}

func Widget(name, namespace string) *WidgetApplyConfiguration {
	return &WidgetApplyConfiguration{Name: &name, Namespace: &namespace}
}

func (b *WidgetApplyConfiguration) WithResourceVersion(value string) *WidgetApplyConfiguration {
	b.ResourceVersion = &value
	return b
}

func (b *WidgetApplyConfiguration) WithStatus(value *WidgetStatusApplyConfiguration) *WidgetApplyConfiguration {
	b.Status = value
	return b
}

func WidgetStatus() *WidgetStatusApplyConfiguration { return &WidgetStatusApplyConfiguration{} }

func (b *WidgetStatusApplyConfiguration) WithReady(value bool) *WidgetStatusApplyConfiguration {
	b.Ready = &value
	return b
}
