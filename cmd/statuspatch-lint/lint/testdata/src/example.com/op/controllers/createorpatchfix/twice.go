package createorpatchfix

import (
	"context"

	v1 "example.com/op/api/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/controller/controllerutil"
)

// Issue 80 (s110's adversary): two CreateOrPatch calls in one function,
// neither keeping its operation result. Each fix named its result op, and
// applied together they declared op twice ("op redeclared"); now the
// second is op2.
func twice(ctx context.Context, c client.Client, a, b *v1.Widget) error {
	_, err := controllerutil.CreateOrPatch(ctx, c, a, func() error { // want `status write by controllerutil\.CreateOrPatch to Widget: its mutate changes the status at line 18, `
		a.Labels = map[string]string{"managed": "true"}
		a.Status.Ready = true
		return nil
	})
	if err != nil {
		return err
	}
	_, err = controllerutil.CreateOrPatch(ctx, c, b, func() error { // want `status write by controllerutil\.CreateOrPatch to Widget: its mutate changes the status at line 26, `
		b.Labels = map[string]string{"managed": "true"}
		b.Status.Ready = true
		return nil
	})
	return err
}
