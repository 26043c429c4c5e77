// Package v1 is a minimal stub of k8s.io/api/core/v1: the Pod
// testdata/realmod's code uses, for the command's tests (stubRealmod).
package v1

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
)

type Pod struct {
	metav1.TypeMeta
	metav1.ObjectMeta
}

func (in *Pod) DeepCopy() *Pod {
	out := *in
	return &out
}

func (in *Pod) DeepCopyObject() runtime.Object { return in.DeepCopy() }
