package createorpatchfix

import (
	"context"
	"fmt"

	v1 "example.com/op/api/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/controller/controllerutil"
)

// Issue 80 (b): an if of the mutate that sets the status and more is
// split in two ifs of the same condition, one left in the mutate, one
// made in the Retry, when the condition calls nothing, reads no status,
// and nothing after it sets what it reads.

// sized labels and readies a sized widget.
func sized(ctx context.Context, c client.Client, w *v1.Widget) error {
	_, err := controllerutil.CreateOrPatch(ctx, c, w, func() error { // want `status write by controllerutil\.CreateOrPatch to Widget: its mutate changes the status at line 22, `
		if w.Spec.Size > 0 {
			w.Labels = map[string]string{"sized": "true"}
			w.Status.Ready = true
		}
		return nil
	})
	return err
}

// finalized: a finalizer, and a number handed out once, under an if
// in an if; the operation is returned.
func finalized(ctx context.Context, c client.Client, w *v1.Widget) (controllerutil.OperationResult, error) {
	op, err := controllerutil.CreateOrPatch(ctx, c, w, func() error { // want `status write by controllerutil\.CreateOrPatch to Widget: its mutate changes the status at line 39, `
		w.Spec.Size = 1
		if len(w.Spec.Zones) > 0 {
			controllerutil.AddFinalizer(w, "op/cleanup")
			if w.Spec.Size > 1 {
				w.Labels = map[string]string{"zones": fmt.Sprint(len(w.Spec.Zones))}
				if w.Status.Size == 0 {
					w.Status.Size = int(ids.Add(1))
				}
			}
		}
		return nil
	})
	return op, err
}

// elsed: the if has an else.
func elsed(ctx context.Context, c client.Client, w *v1.Widget) error {
	_, err := controllerutil.CreateOrPatch(ctx, c, w, func() error { // want `keeps the status change at line 53 in the mutate: line 51 uses the status and sets w\.Labels, and -fix does not split an if with an else`
		if w.Spec.Size > 0 {
			w.Labels = map[string]string{"sized": "true"}
			w.Status.Ready = true
		} else {
			w.Status.Ready = false
		}
		return nil
	})
	return err
}

// readied: the condition reads the status, which the if left in the
// mutate would read as CreateOrPatch read it.
func readied(ctx context.Context, c client.Client, w *v1.Widget) error {
	_, err := controllerutil.CreateOrPatch(ctx, c, w, func() error { // want `keeps the status change at line 68 in the mutate: line 66 uses the status and sets w\.Labels, and its condition reads the status: the if left in the mutate would decide on the status CreateOrPatch read`
		if !w.Status.Ready {
			w.Labels = map[string]string{"ready": "true"}
			w.Status.Ready = true
		}
		return nil
	})
	return err
}

func big(n int) bool { return n > 3 }

// called: the condition calls a function, which both ifs would call.
func called(ctx context.Context, c client.Client, w *v1.Widget) error {
	_, err := controllerutil.CreateOrPatch(ctx, c, w, func() error { // want `keeps the status change at line 82 in the mutate: line 80 uses the status and sets w\.Labels, and its condition calls big at line 80, which both of the split ifs would do`
		if big(w.Spec.Size) {
			w.Labels = map[string]string{"big": "true"}
			w.Status.Ready = true
		}
		return nil
	})
	return err
}

// reset: the if sets the spec its condition reads; the moved if would
// read it set.
func reset(ctx context.Context, c client.Client, w *v1.Widget) error {
	_, err := controllerutil.CreateOrPatch(ctx, c, w, func() error { // want `keeps the status change at line 94 in the mutate: line 93 reads w\.Spec, which line 95 sets after it`
		if w.Spec.Size > 3 {
			w.Status.Ready = true
			w.Spec.Size = 3
		}
		return nil
	})
	return err
}

// counted: the if declares a local both halves use.
func counted(ctx context.Context, c client.Client, w *v1.Widget) error {
	_, err := controllerutil.CreateOrPatch(ctx, c, w, func() error { // want `keeps the status change at line 108 in the mutate: line 108 uses n, which line 106 declares in the mutate`
		if w.Spec.Size > 0 {
			n := w.Spec.Size * 2
			w.Labels = map[string]string{"double": fmt.Sprint(n)}
			w.Status.Size = n
		}
		return nil
	})
	return err
}

// deleting: the condition reads the metadata's DeletionTimestamp, which
// AddFinalizer, setting the finalizers, leaves as it was: the if is split,
// the finalizer left in the mutate.
func deleting(ctx context.Context, c client.Client, w *v1.Widget) error {
	_, err := controllerutil.CreateOrPatch(ctx, c, w, func() error { // want `status write by controllerutil\.CreateOrPatch to Widget: its mutate changes the status at line 122, `
		if w.DeletionTimestamp == nil {
			controllerutil.AddFinalizer(w, "op/cleanup")
			w.Status.Ready = true
		}
		return nil
	})
	return err
}

// inited: the if has an init statement, which both halves would run.
func inited(ctx context.Context, c client.Client, w *v1.Widget) error {
	_, err := controllerutil.CreateOrPatch(ctx, c, w, func() error { // want `keeps the status change at line 134 in the mutate: line 132 uses the status and sets w\.Labels, and -fix does not split an if with an init statement`
		if n := w.Spec.Size; n > 0 {
			w.Labels = map[string]string{"sized": "true"}
			w.Status.Ready = true
		}
		return nil
	})
	return err
}

// received2: the condition receives from a channel, which both halves
// would do.
func received2(ctx context.Context, c client.Client, w *v1.Widget, ready chan bool) error {
	_, err := controllerutil.CreateOrPatch(ctx, c, w, func() error { // want `keeps the status change at line 147 in the mutate: line 145 uses the status and sets w\.Labels, and its condition receives from ready at line 145, which both of the split ifs would do`
		if <-ready {
			w.Labels = map[string]string{"ready": "true"}
			w.Status.Ready = true
		}
		return nil
	})
	return err
}

// once: the if sets the variable its condition reads; the moved if
// would read it set.
func once(ctx context.Context, c client.Client, w *v1.Widget) error {
	done := false
	_, err := controllerutil.CreateOrPatch(ctx, c, w, func() error { // want `keeps the status change at line 162 in the mutate: line 159 reads done, which line 161 sets after it`
		if !done {
			w.Labels = map[string]string{"once": "true"}
			done = true
			w.Status.Ready = true
		}
		return nil
	})
	return err
}

// finalizing: the status counts the finalizers AddFinalizer sets after
// it; moved, it would count the new one.
func finalizing(ctx context.Context, c client.Client, w *v1.Widget) error {
	_, err := controllerutil.CreateOrPatch(ctx, c, w, func() error { // want `keeps the status change at line 173 in the mutate: line 173 reads w\.Finalizers, which line 174 sets after it`
		w.Status.Size = len(w.Finalizers)
		controllerutil.AddFinalizer(w, "op/cleanup")
		return nil
	})
	return err
}

// living: the kubebuilder idiom, IsZero of the DeletionTimestamp, a
// reader, evaluated by both ifs.
func living(ctx context.Context, c client.Client, w *v1.Widget) error {
	_, err := controllerutil.CreateOrPatch(ctx, c, w, func() error { // want `status write by controllerutil\.CreateOrPatch to Widget: its mutate changes the status at line 186, `
		if w.DeletionTimestamp.IsZero() {
			w.Labels = map[string]string{"live": "true"}
			w.Status.Ready = true
		}
		return nil
	})
	return err
}

// guarded: ContainsFinalizer reads the finalizers; the if only sets the
// status, and moves whole.
func guarded(ctx context.Context, c client.Client, w *v1.Widget) error { // want guarded:"statusOnly\\[2\\]"
	_, err := controllerutil.CreateOrPatch(ctx, c, w, func() error { // want `status write by controllerutil\.CreateOrPatch to Widget: its mutate changes the status at line 198, `
		if controllerutil.ContainsFinalizer(w, "op/cleanup") {
			w.Status.Ready = true
		}
		return nil
	})
	return err
}
