// Package v1 is a minimal stub of k8s.io/api/apps/v1: the Deployment
// testdata/realmod's code uses, for the command's tests (stubRealmod).
package v1

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
)

type Deployment struct {
	metav1.TypeMeta
	metav1.ObjectMeta
	Spec   DeploymentSpec
	Status DeploymentStatus
}

type DeploymentSpec struct {
	Replicas *int32
}

type DeploymentStatus struct {
	ObservedGeneration int64
	Replicas           int32
}

func (in *Deployment) DeepCopy() *Deployment {
	out := *in
	return &out
}

func (in *Deployment) DeepCopyObject() runtime.Object { return in.DeepCopy() }

func (in *Deployment) DeepCopyInto(out *Deployment) { *out = *in }

func (in *DeploymentStatus) DeepCopyInto(out *DeploymentStatus) { *out = *in }
