// Package getutil reads objects for another package's reconcilers
// (originhelperfact.go): its ParamsFact records which parameter (or the
// result, -1) a function's Get reads into, and whether the object the
// call hands back is the Get's.
package getutil

import (
	"context"

	v1 "example.com/op/api/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// GetWidget reads the widget and hands it back: the caller's read.
func GetWidget(ctx context.Context, c client.Client, key client.ObjectKey) (*v1.Widget, error) { // want GetWidget:"reads\\[-1\\]"
	w := &v1.Widget{}
	if err := c.Get(ctx, key, w); err != nil {
		return nil, err
	}
	return w, nil
}

// Load reads into the widget it is given: the caller's read.
func Load(ctx context.Context, c client.Client, key client.ObjectKey, w *v1.Widget) error { // want Load:"statusOnly\\[3\\] reads\\[3\\]" Load:`^readsOnly\[3\]$`
	return c.Get(ctx, key, w)
}

// LoadUnnamed reads into the widget only when it has no name yet.
func LoadUnnamed(ctx context.Context, c client.Client, key client.ObjectKey, w *v1.Widget) error { // want LoadUnnamed:"statusOnly\\[3\\] readsWhy\\[3\\]" LoadUnnamed:`^readsOnly\[3\]$`
	if w.Name != "" {
		return nil
	}
	return c.Get(ctx, key, w)
}

// GetDefaulted reads the widget and sets a default after its Get.
func GetDefaulted(ctx context.Context, c client.Client, key client.ObjectKey) (*v1.Widget, error) { // want GetDefaulted:"readsWhy\\[-1\\]"
	w := &v1.Widget{}
	if err := c.Get(ctx, key, w); err != nil {
		return nil, err
	}
	if w.Status.Size == 0 {
		w.Status.Size = 1
	}
	return w, nil
}
