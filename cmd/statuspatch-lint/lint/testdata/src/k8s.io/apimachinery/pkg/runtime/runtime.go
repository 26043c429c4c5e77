// Package runtime is a minimal stub of k8s.io/apimachinery/pkg/runtime for analysistest.
package runtime

type Object interface {
	DeepCopyObject() Object
}

type ApplyConfiguration interface {
	IsApplyConfiguration()
}

type Scheme struct{}
