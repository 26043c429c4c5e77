package v1

// The fleet: one kind for each shape of status write of issue 80's item 2
// (kubebuilder create api for each, in this group version). Each status
// holds a token its reconciler hands out once.

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// ShipSpec is what the user asks for.
type ShipSpec struct {
	// Note is free text.
	// +optional
	Note string `json:"note,omitempty"`
}

// ShipStatus is what the reconciler decided.
type ShipStatus struct {
	// Token is handed out once, by the reconciler.
	// +optional
	Token string `json:"token,omitempty"`
}

// Ship is a ship; its reconciler hands out its token in a deferred write.
// +kubebuilder:object:root=true
// +kubebuilder:subresource:status
type Ship struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec   ShipSpec   `json:"spec,omitempty"`
	Status ShipStatus `json:"status,omitempty"`
}

// ShipList is a list of Ships.
// +kubebuilder:object:root=true
type ShipList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []Ship `json:"items"`
}

// CrateSpec is what the user asks for.
type CrateSpec struct {
	// Note is free text.
	// +optional
	Note string `json:"note,omitempty"`
}

// CrateStatus is what the reconciler decided.
type CrateStatus struct {
	// Token is handed out once, by the reconciler.
	// +optional
	Token string `json:"token,omitempty"`
}

// Crate is a crate; its reconciler hands out its token in retry.RetryOnConflict.
// +kubebuilder:object:root=true
// +kubebuilder:subresource:status
type Crate struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec   CrateSpec   `json:"spec,omitempty"`
	Status CrateStatus `json:"status,omitempty"`
}

// CrateList is a list of Crates.
// +kubebuilder:object:root=true
type CrateList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []Crate `json:"items"`
}

// DockSpec is what the user asks for.
type DockSpec struct {
	// Note is free text.
	// +optional
	Note string `json:"note,omitempty"`
}

// DockStatus is what the reconciler decided.
type DockStatus struct {
	// Token is handed out once, by the reconciler.
	// +optional
	Token string `json:"token,omitempty"`
}

// Dock is a dock; its reconciler hands out a token to each Berth labelled dock=<its name>.
// +kubebuilder:object:root=true
// +kubebuilder:subresource:status
type Dock struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec   DockSpec   `json:"spec,omitempty"`
	Status DockStatus `json:"status,omitempty"`
}

// DockList is a list of Docks.
// +kubebuilder:object:root=true
type DockList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []Dock `json:"items"`
}

// BerthSpec is what the user asks for.
type BerthSpec struct {
	// Note is free text.
	// +optional
	Note string `json:"note,omitempty"`
}

// BerthStatus is what the reconciler decided.
type BerthStatus struct {
	// Token is handed out once, by the reconciler.
	// +optional
	Token string `json:"token,omitempty"`
}

// Berth is a berth of a Dock (its dock label); the Dock's reconciler writes its status.
// +kubebuilder:object:root=true
// +kubebuilder:subresource:status
type Berth struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec   BerthSpec   `json:"spec,omitempty"`
	Status BerthStatus `json:"status,omitempty"`
}

// BerthList is a list of Berths.
// +kubebuilder:object:root=true
type BerthList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []Berth `json:"items"`
}

// VoyageSpec is what the user asks for.
type VoyageSpec struct {
	// Note is free text.
	// +optional
	Note string `json:"note,omitempty"`
}

// VoyageStatus is what the reconciler decided.
type VoyageStatus struct {
	// Token is handed out once, by the reconciler.
	// +optional
	Token string `json:"token,omitempty"`
	// Phase is the last phase the voyage reached.
	// +optional
	Phase string `json:"phase,omitempty"`
}

// Voyage is a voyage; its reconciler runs phase functions, then writes once.
// +kubebuilder:object:root=true
// +kubebuilder:subresource:status
type Voyage struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec   VoyageSpec   `json:"spec,omitempty"`
	Status VoyageStatus `json:"status,omitempty"`
}

// VoyageList is a list of Voyages.
// +kubebuilder:object:root=true
type VoyageList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []Voyage `json:"items"`
}

// CargoSpec is what the user asks for.
type CargoSpec struct {
	// Note is free text.
	// +optional
	Note string `json:"note,omitempty"`
}

// CargoStatus is what the reconciler decided.
type CargoStatus struct {
	// Token is handed out once, by the reconciler.
	// +optional
	Token string `json:"token,omitempty"`
}

// Cargo is a cargo; its reconciler writes through a generic patchStatus helper.
// +kubebuilder:object:root=true
// +kubebuilder:subresource:status
type Cargo struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec   CargoSpec   `json:"spec,omitempty"`
	Status CargoStatus `json:"status,omitempty"`
}

// CargoList is a list of Cargos.
// +kubebuilder:object:root=true
type CargoList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []Cargo `json:"items"`
}

// AnchorSpec is what the user asks for.
type AnchorSpec struct {
	// Note is free text.
	// +optional
	Note string `json:"note,omitempty"`
}

// AnchorStatus is what the reconciler decided.
type AnchorStatus struct {
	// Token is handed out once, by the reconciler.
	// +optional
	Token string `json:"token,omitempty"`
}

// Anchor is an anchor; a sub-reconciler with its own client writes its status.
// +kubebuilder:object:root=true
// +kubebuilder:subresource:status
type Anchor struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec   AnchorSpec   `json:"spec,omitempty"`
	Status AnchorStatus `json:"status,omitempty"`
}

// AnchorList is a list of Anchors.
// +kubebuilder:object:root=true
type AnchorList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []Anchor `json:"items"`
}

// FerrySpec is what the user asks for.
type FerrySpec struct {
	// Note is free text.
	// +optional
	Note string `json:"note,omitempty"`
}

// FerryStatus is what the reconciler decided.
type FerryStatus struct {
	// Token is handed out once, by the reconciler.
	// +optional
	Token string `json:"token,omitempty"`

	// Conditions are the ferry's conditions, Available among them.
	// +listType=map
	// +listMapKey=type
	// +optional
	Conditions []metav1.Condition `json:"conditions,omitempty"`
}

// Ferry is a ferry; its reconciler writes its status as kubebuilder's
// deploy-image tutorial does: Unknown first, then a re-read, a finalizer,
// a deferred failure condition, and a merge patch.
// +kubebuilder:object:root=true
// +kubebuilder:subresource:status
type Ferry struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec   FerrySpec   `json:"spec,omitempty"`
	Status FerryStatus `json:"status,omitempty"`
}

// FerryList is a list of Ferries.
// +kubebuilder:object:root=true
type FerryList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []Ferry `json:"items"`
}
