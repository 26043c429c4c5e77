// +groupName=ops.example.com
package v1

import metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

type BackupStatus struct {
	Done bool `json:"done,omitempty"`
}

// +kubebuilder:object:root=true
// +kubebuilder:subresource:status
type Backup struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	Status            BackupStatus `json:"status,omitempty"`
}
