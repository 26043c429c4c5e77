package patcher

import "sigs.k8s.io/controller-runtime/pkg/client"

// WithWriteToken sets no write mode: its field is the patcher's to write.
func WithWriteToken[T client.Object](field func(obj T) *string) Option {
	return optionFunc(func() {})
}
