// Package runtime is a minimal stub of k8s.io/apimachinery/pkg/runtime for analysistest.
package runtime

type Object interface {
	DeepCopyObject() Object
}

type ApplyConfiguration interface {
	IsApplyConfiguration()
}

type Scheme struct{}

// Encoder writes an object (apimachinery's runtime.Encoder, less Identifier).
type Encoder interface {
	Encode(obj Object, w interface{ Write([]byte) (int, error) }) error
}

// Codec encodes and decodes (the stub encodes only).
type Codec interface {
	Encoder
}
