// Package klog is a stub of k8s.io/klog/v2: KObj reads an object's name.
package klog

type KMetadata interface {
	GetName() string
	GetNamespace() string
}

type ObjectRef struct{ Name, Namespace string }

func KObj(obj KMetadata) ObjectRef {
	return ObjectRef{Name: obj.GetName(), Namespace: obj.GetNamespace()}
}
