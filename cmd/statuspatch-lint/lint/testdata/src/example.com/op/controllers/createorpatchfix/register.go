// Package createorpatchfix: -fix moves a CreateOrPatch mutate's status
// statements onto the kind's patcher (issue 80, project E): after
// CreateOrPatch returns without error, and not on create (where it
// writes no status), NewWidgetStatusPatcher(c, obj).Retry makes them on
// the object it wrote, under the lock, again on fresh state after a
// 409; a call with a side effect made once. What cannot be moved as the
// same decision stays, the reason naming the line.
package createorpatchfix

import (
	"context"
	"fmt"
	"sync/atomic"

	v1 "example.com/op/api/v1"
	"example.com/op/internal/patchers"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/controller/controllerutil"
)

var ids atomic.Int64

// register is project E's r1: the number is handed out once.
func register(ctx context.Context, c client.Client, name string) error {
	w := &v1.Widget{}
	w.Name = name
	_, err := controllerutil.CreateOrPatch(ctx, c, w, func() error { // want `^status write by controllerutil\.CreateOrPatch to Widget: its mutate changes the status at line 31, and CreateOrPatch patches it with client\.MergeFrom: with no resourceVersion when the mutate changed only the status, else with the one its patch of the rest returned, so what the mutate decided overwrites a status written between its Get and that patch \(one written after that patch gets a 409\): use WidgetStatusPatcher \(example\.com/op/internal/patchers\)$`
		if w.Status.Size == 0 {
			w.Status.Size = int(ids.Add(1))
		}
		return nil
	})
	return err
}

// reconcile is project E's Reconcile: the labels stay in the mutate, the
// operation is logged, and the status read after it.
func reconcile(ctx context.Context, c client.Client, w *v1.Widget) (int, error) {
	op, err := controllerutil.CreateOrPatch(ctx, c, w, func() error { // want `^status write by controllerutil\.CreateOrPatch to Widget: its mutate changes the status at line 47, .*\(example\.com/op/internal/patchers\)$`
		if w.Labels == nil {
			w.Labels = map[string]string{}
		}
		w.Labels["managed"] = "true"
		if w.Status.Size == 0 {
			w.Status.Size = int(ids.Add(1))
		}
		meta.SetStatusCondition(&w.Status.Conditions, metav1.Condition{
			Type: "Accepted", Status: "True", Reason: "Registered", ObservedGeneration: w.Generation,
		})
		return nil
	})
	if err != nil {
		return 0, fmt.Errorf("register widget %s: %w", w.Name, err)
	}
	fmt.Println("registered", op)
	return w.Status.Size, nil
}

// readsLater: the status is decided from the spec the mutate sets after
// it; moved, it would read the new size.
func readsLater(ctx context.Context, c client.Client, w *v1.Widget) error {
	_, err := controllerutil.CreateOrPatch(ctx, c, w, func() error { // want `not moved to the patcher: -fix keeps the status change at line 65 in the mutate: line 65 reads w\.Spec, which line 66 sets after it`
		w.Status.Size = w.Spec.Size
		w.Spec.Size = 3
		return nil
	})
	return err
}

// mixed sets the spec from the status in one statement.
func mixed(ctx context.Context, c client.Client, w *v1.Widget) error {
	_, err := controllerutil.CreateOrPatch(ctx, c, w, func() error { // want `keeps the status change at line 75 in the mutate: line 76 uses the status and sets w\.Spec`
		w.Status.Ready = true
		w.Spec.Size = len(w.Status.Conditions)
		return nil
	})
	return err
}

// returned: the status is set only when the spec is sized.
func returned(ctx context.Context, c client.Client, w *v1.Widget) error { // want returned:"statusOnly\\[2\\]"
	_, err := controllerutil.CreateOrPatch(ctx, c, w, func() error { // want `keeps the status change at line 88 in the mutate: line 86 returns before it, so it is not made on every run`
		if w.Spec.Size == 0 {
			return nil
		}
		w.Status.Ready = true
		return nil
	})
	return err
}

// local: the status is set from a local of the mutate.
func local(ctx context.Context, c client.Client, w *v1.Widget) error { // want local:"statusOnly\\[2\\]"
	_, err := controllerutil.CreateOrPatch(ctx, c, w, func() error { // want `keeps the status change at line 98 in the mutate: line 98 uses n, which line 97 declares in the mutate`
		n := w.Spec.Size * 2
		w.Status.Size = n
		return nil
	})
	return err
}

func markReady(w *v1.Widget) { w.Status.Ready = true } // want markReady:"statusOnly\\[0\\]"

// helper: the status change is in a function given the object.
func helper(ctx context.Context, c client.Client, w *v1.Widget) error { // want helper:"statusOnly\\[2\\]"
	_, err := controllerutil.CreateOrPatch(ctx, c, w, func() error { // want `keeps the status change at line 104 \(in markReady\) in the mutate: line 109 hands w to markReady, which may read or change its status`
		markReady(w)
		return nil
	})
	return err
}

// inIf: the call is an if's init, no statement to make the Retry after.
func inIf(ctx context.Context, c client.Client, w *v1.Widget) error { // want inIf:"statusOnly\\[2\\]"
	if _, err := controllerutil.CreateOrPatch(ctx, c, w, func() error { // want `keeps the status change at line 118 in the mutate: the call at line 117 is not a statement of its own`
		w.Status.Ready = true
		return nil
	}); err != nil {
		return err
	}
	return nil
}

// received: the size comes from a channel, consumed again by each
// attempt.
func received(ctx context.Context, c client.Client, w *v1.Widget, sizes chan int) error { // want received:"statusOnly\\[2\\]"
	_, err := controllerutil.CreateOrPatch(ctx, c, w, func() error { // want `keeps the status change at line 130 in the mutate: it receives from sizes at line 130`
		w.Status.Size = <-sizes
		return nil
	})
	return err
}

// later: the status is decided from a variable the mutate sets after
// it; moved, it would read the new value.
func later(ctx context.Context, c client.Client, w *v1.Widget) error { // want later:"statusOnly\\[2\\]"
	size := 1
	_, err := controllerutil.CreateOrPatch(ctx, c, w, func() error { // want `keeps the status change at line 141 in the mutate: line 141 reads size, which line 142 sets after it`
		w.Status.Size = size
		size = 2
		return nil
	})
	return err
}

// patched: the function makes the object's patcher itself, after.
func patched(ctx context.Context, c client.Client, w *v1.Widget) error {
	_, err := controllerutil.CreateOrPatch(ctx, c, w, func() error { // want `keeps the status change at line 151 in the mutate: line 157 makes w's patcher: make the status decision in its Retry, after CreateOrPatch`
		w.Status.Ready = true
		return nil
	})
	if err != nil {
		return err
	}
	return patchers.NewWidgetStatusPatcher(c, w).Flush(ctx)
}

// rewritten: the function writes the object's status itself, after.
func rewritten(ctx context.Context, c client.Client, w *v1.Widget) error {
	_, err := controllerutil.CreateOrPatch(ctx, c, w, func() error { // want `keeps the status change at line 163 in the mutate: line 170 writes w's status too`
		w.Status.Ready = true
		return nil
	})
	if err != nil {
		return err
	}
	w.Status.Size = 2
	return c.Status().Update(ctx, w) // want `handwritten status write to Widget`
}

// grown calls a method of the kind, whose body is not followed.
func grown(ctx context.Context, c client.Client, w *v1.Widget) error {
	_, err := controllerutil.CreateOrPatch(ctx, c, w, func() error { // want `keeps the status change at line 176 in the mutate: line 177 hands w to the method Grow, which may read or change its status`
		w.Status.Ready = true
		w.Grow()
		return nil
	})
	return err
}

// assigned: the error is the function's, assigned in a loop (op, err :=
// would shadow it); the operation result is declared for the Retry to
// tell a create by.
func assigned(ctx context.Context, c client.Client, ws []*v1.Widget) error {
	var err error
	for _, w := range ws {
		_, err = controllerutil.CreateOrPatch(ctx, c, w, func() error { // want `status write by controllerutil\.CreateOrPatch to Widget: its mutate changes the status at line 191, `
			w.Labels = map[string]string{"managed": "true"}
			w.Status.Ready = true
			return nil
		})
		if err != nil {
			break
		}
	}
	return err
}
