// Package ac holds Rollout's apply configurations in the shape
// controller-gen's applyconfiguration output gives them (a subset, written
// here: the examples do not generate them).
package ac

// RolloutApplyConfiguration is a Rollout's apply configuration.
type RolloutApplyConfiguration struct {
	APIVersion *string                          `json:"apiVersion,omitempty"`
	Kind       *string                          `json:"kind,omitempty"`
	Metadata   *ObjectMetaApplyConfiguration    `json:"metadata,omitempty"`
	Status     *RolloutStatusApplyConfiguration `json:"status,omitempty"`
}

// ObjectMetaApplyConfiguration is the part of the metadata an apply names.
type ObjectMetaApplyConfiguration struct {
	Name      *string `json:"name,omitempty"`
	Namespace *string `json:"namespace,omitempty"`
}

// Rollout starts the apply configuration of the named Rollout.
func Rollout(name, namespace string) *RolloutApplyConfiguration {
	apiVersion, kind := "examples.statuspatch.dev/v1alpha1", "Rollout"
	return &RolloutApplyConfiguration{APIVersion: &apiVersion, Kind: &kind,
		Metadata: &ObjectMetaApplyConfiguration{Name: &name, Namespace: &namespace}}
}

// IsApplyConfiguration marks it as an apply configuration.
func (b RolloutApplyConfiguration) IsApplyConfiguration() {}

// WithStatus sets the status.
func (b *RolloutApplyConfiguration) WithStatus(value *RolloutStatusApplyConfiguration) *RolloutApplyConfiguration {
	b.Status = value
	return b
}

// RolloutStatusApplyConfiguration is the status's apply configuration.
type RolloutStatusApplyConfiguration struct {
	Plan *RolloutPlanApplyConfiguration `json:"plan,omitempty"`
}

// RolloutStatus starts a status apply configuration.
func RolloutStatus() *RolloutStatusApplyConfiguration { return &RolloutStatusApplyConfiguration{} }

// WithPlan sets the plan.
func (b *RolloutStatusApplyConfiguration) WithPlan(value *RolloutPlanApplyConfiguration) *RolloutStatusApplyConfiguration {
	b.Plan = value
	return b
}

// RolloutPlanApplyConfiguration is the plan's apply configuration.
type RolloutPlanApplyConfiguration struct {
	ID         *string  `json:"id,omitempty"`
	Generation *int64   `json:"generation,omitempty"`
	Version    *string  `json:"version,omitempty"`
	Steps      []string `json:"steps,omitempty"`
}

// RolloutPlan starts a plan apply configuration.
func RolloutPlan() *RolloutPlanApplyConfiguration { return &RolloutPlanApplyConfiguration{} }

// WithID sets the plan's id.
func (b *RolloutPlanApplyConfiguration) WithID(value string) *RolloutPlanApplyConfiguration {
	b.ID = &value
	return b
}

// WithGeneration sets the generation the plan was built for.
func (b *RolloutPlanApplyConfiguration) WithGeneration(value int64) *RolloutPlanApplyConfiguration {
	b.Generation = &value
	return b
}

// WithVersion sets the version the plan rolls out.
func (b *RolloutPlanApplyConfiguration) WithVersion(value string) *RolloutPlanApplyConfiguration {
	b.Version = &value
	return b
}

// WithSteps adds steps.
func (b *RolloutPlanApplyConfiguration) WithSteps(values ...string) *RolloutPlanApplyConfiguration {
	b.Steps = append(b.Steps, values...)
	return b
}
