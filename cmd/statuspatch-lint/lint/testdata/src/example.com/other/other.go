// Package other has a Widget of its own, without a patcher.
package other

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
)

type Widget struct {
	metav1.TypeMeta
	metav1.ObjectMeta
}

func (w *Widget) DeepCopyObject() runtime.Object { return w }
