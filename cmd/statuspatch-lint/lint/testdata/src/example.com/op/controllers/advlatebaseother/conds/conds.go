// Package conds: status helpers of another package than their callers.
package conds

import (
	"context"

	v1 "example.com/op/api/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// MarkReady changes only the status, and writes nothing.
func MarkReady(w *v1.Widget) { w.Status.Ready = true }

// Save writes the status it changed.
func Save(ctx context.Context, c client.Client, w *v1.Widget) error {
	w.Status.Size = 1
	return c.Status().Update(ctx, w)
}

// MarkAndSave changes the status and has Save write it.
func MarkAndSave(ctx context.Context, c client.Client, w *v1.Widget) error {
	w.Status.Ready = true
	return Save(ctx, c, w)
}

// IsReady only reads the status.
func IsReady(w *v1.Widget) bool { return w.Status.Ready }
