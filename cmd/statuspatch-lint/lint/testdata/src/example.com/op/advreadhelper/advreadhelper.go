// Package advreadhelper: review RB of s97b's readsFact. Functions given a
// client and an object that read it, beside ways to write it later: a
// goroutine, a returned helper whose method writes it.
package advreadhelper

import (
	"context"

	"sigs.k8s.io/controller-runtime/pkg/client"
)

// Watch reads obj, and updates it in a goroutine: no readsOnly fact.
func Watch(ctx context.Context, obj client.Object, c client.Client) error { // want Watch:`^statusOnly\[1\]$`
	if obj.GetName() == "" {
		return nil
	}
	go func() { _ = c.Update(ctx, obj) }()
	return nil
}

// Later updates obj in a goroutine, the call itself: no readsOnly fact.
func Later(ctx context.Context, obj client.Object, c client.Client) error { // want Later:`^statusOnly\[1\]$`
	go c.Update(ctx, obj)
	return nil
}

// Writer holds a client.
type Writer struct {
	c client.Client
}

// NewWriter reads obj and returns a Writer on c.
func NewWriter(obj client.Object, c client.Client) (*Writer, error) { // want NewWriter:`^statusOnly\[0\]$` NewWriter:`^readsOnly\[0\]$`
	_ = obj.GetName()
	return &Writer{c: c}, nil
}

// Write updates obj through the client the Writer holds.
func (w *Writer) Write(ctx context.Context, obj client.Object) error { // want Write:`^statusOnly\[1\]$`
	return w.c.Update(ctx, obj)
}
