// Package migrateloop: a status write in a conflict loop of client-go's
// retry package (retry.RetryOnConflict, retry.OnError with
// apierrors.IsConflict) whose function reads the object with Get, then
// decides and writes its status. The loop becomes the patcher's Fetch and
// Retry: the decision is Retry's mutate, which decides again from the
// object it re-reads fresh on a conflict (a Get in the loop reads the
// same lagging cache again).
package migrateloop

import (
	"context"
	"fmt"

	v1 "example.com/op/api/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/util/retry"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

type ItemReconciler struct {
	client.Client
}

func decide(s string) int { return len(s) }

// The object declared before the loop and used after it, an early
// return nil when decided already.
func (r *ItemReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	item := &v1.Widget{}
	err := retry.RetryOnConflict(retry.DefaultRetry, func() error {
		if err := r.Get(ctx, req.NamespacedName, item); err != nil {
			return err
		}
		if item.Status.Size != 0 {
			return nil
		}
		item.Status.Size = decide(item.Namespace + "/" + item.Name)
		return r.Status().Update(ctx, item) // want `^handwritten status write to Widget`
	})
	if err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	if !item.Status.Ready {
		fmt.Println(item.Name)
	}
	return ctrl.Result{}, nil
}

// The object declared in the loop's function; the loop in an if.
func inside(ctx context.Context, c client.Client, key client.ObjectKey) error {
	if err := retry.RetryOnConflict(retry.DefaultRetry, func() error {
		w := &v1.Widget{}
		if err := c.Get(ctx, key, w); err != nil {
			return err
		}
		w.Status.Size++
		return c.Status().Update(ctx, w) // want `^handwritten status write to Widget`
	}); err != nil {
		return fmt.Errorf("count: %w", err)
	}
	return nil
}

// retry.OnError retrying conflicts, returned; a merge patch from a base
// taken after the read, which goes.
func onError(ctx context.Context, c client.Client, key client.ObjectKey) error {
	return retry.OnError(retry.DefaultRetry, apierrors.IsConflict, func() error {
		w := &v1.Widget{}
		if err := c.Get(ctx, key, w); err != nil {
			return err
		}
		base := w.DeepCopy()
		w.Status.Ready = w.Status.Size > 2
		return c.Status().Patch(ctx, w, client.MergeFrom(base)) // want `^handwritten status write to Widget`
	})
}

// The loop's error assigned to a variable of the function, the Get's
// error checked after it, the write's error returned in an if.
func assigned(ctx context.Context, c client.Client, key client.ObjectKey) (ctrl.Result, error) {
	var err error
	w := &v1.Widget{}
	err = retry.RetryOnConflict(retry.DefaultRetry, func() error {
		err := c.Get(ctx, key, w)
		if err != nil {
			return err
		}
		w.Status.Size = len(w.Spec.Roles)
		if err := c.Status().Update(ctx, w); err != nil { // want `^handwritten status write to Widget`
			return err
		}
		return nil
	})
	return ctrl.Result{Requeue: w.Status.Size == 0}, err
}

// The object declared before the loop, not used after it: its
// declaration goes.
func declared(ctx context.Context, c client.Client, key client.ObjectKey) error {
	w := &v1.Widget{}
	err := retry.RetryOnConflict(retry.DefaultRetry, func() error {
		if err := c.Get(ctx, key, w); err != nil {
			return err
		}
		w.Status.Ready = !w.Status.Ready
		return c.Status().Update(ctx, w) // want `^handwritten status write to Widget`
	})
	return err
}

// A result beside the loop's error.
func results(ctx context.Context, c client.Client, key client.ObjectKey) (ctrl.Result, error) {
	return ctrl.Result{Requeue: true}, retry.RetryOnConflict(retry.DefaultRetry, func() error {
		w := &v1.Widget{}
		if err := c.Get(ctx, key, w); err != nil {
			return err
		}
		w.Status.Ready = true
		return c.Status().Update(ctx, w) // want `^handwritten status write to Widget`
	})
}

// The Get's error wrapped: the loop stays (a Flush in it would re-read
// the same cache on a conflict), naming the line.
func wrapped(ctx context.Context, c client.Client, key client.ObjectKey) error {
	return retry.RetryOnConflict(retry.DefaultRetry, func() error {
		w := &v1.Widget{}
		if err := c.Get(ctx, key, w); err != nil {
			return fmt.Errorf("read: %w", err)
		}
		w.Status.Ready = true
		return c.Status().Update(ctx, w) // want `^handwritten status write to Widget.*\(not moved to the patcher: the write is in retry\.RetryOnConflict's function, whose Get at line 130 returns its error changed \(make the Get a FetchWidgetStatusPatcher before the loop, and the loop its Retry, by hand\)\)$`
	})
}

// The Get's key is made from the object declared before the loop: the
// declaration stays, the Fetch's key made from it.
func keyFromObj(ctx context.Context, c client.Client, name, ns string) error {
	w := &v1.Widget{ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: ns}}
	return retry.RetryOnConflict(retry.DefaultRetry, func() error {
		if err := c.Get(ctx, client.ObjectKeyFromObject(w), w); err != nil {
			return err
		}
		w.Status.Ready = true
		return c.Status().Update(ctx, w) // want `^handwritten status write to Widget`
	})
}

// The loop in a function literal, the object declared in the function
// around it and read after the call: the loop stays.
func nested(ctx context.Context, c client.Client, key client.ObjectKey) error {
	w := &v1.Widget{}
	do := func() error {
		return retry.RetryOnConflict(retry.DefaultRetry, func() error {
			if err := c.Get(ctx, key, w); err != nil {
				return err
			}
			w.Status.Ready = true
			return c.Status().Update(ctx, w) // want `^handwritten status write to Widget.*\(not moved to the patcher: the write is in retry\.RetryOnConflict's function, returned, and w is used outside it `
		})
	}
	if err := do(); err != nil {
		return err
	}
	fmt.Println(w.Status.Size)
	return nil
}

// The object is the caller's: rebinding the parameter would leave the
// caller's object as it was. The loop stays.
func param(ctx context.Context, c client.Client, w *v1.Widget) error {
	err := retry.RetryOnConflict(retry.DefaultRetry, func() error {
		if err := c.Get(ctx, client.ObjectKeyFromObject(w), w); err != nil {
			return err
		}
		w.Status.Ready = true
		return c.Status().Update(ctx, w) // want `^handwritten status write to Widget.*\(not moved to the patcher: the write is in retry\.RetryOnConflict's function, and w is declared outside the function \(a parameter or a package's variable\), whose holders would not see the object Retry wrote `
	})
	fmt.Println(w.Name)
	return err
}

func slow() retry.Backoff { return retry.Backoff{Steps: 50} }

// A backoff of its own a call makes: the patcher cannot be given it
// (migrateloopbackoff has the ones it can). The loop stays.
func backoff(ctx context.Context, c client.Client, key client.ObjectKey) error {
	return retry.RetryOnConflict(slow(), func() error {
		w := &v1.Widget{}
		if err := c.Get(ctx, key, w); err != nil {
			return err
		}
		w.Status.Size++
		return c.Status().Update(ctx, w) // want `^handwritten status write to Widget.*\(not moved to the patcher: the write is in retry\.RetryOnConflict's function, whose backoff slow\(\) is not retry\.DefaultRetry or retry\.DefaultBackoff, nor a variable of type wait\.Backoff `
	})
}

type holder struct{ w *v1.Widget }

// The object declared from a field and read after the loop: Object()
// would rebind the local alone, the field's object left stale. The loop
// stays.
func (h *holder) field(ctx context.Context, c client.Client, key client.ObjectKey) bool {
	w := h.w
	err := retry.RetryOnConflict(retry.DefaultRetry, func() error {
		if err := c.Get(ctx, key, w); err != nil {
			return err
		}
		w.Status.Ready = true
		return c.Status().Update(ctx, w) // want `^handwritten status write to Widget.*\(not moved to the patcher: the write is in retry\.RetryOnConflict's function, and w, used outside it, is declared at line 206 from an object that may be held elsewhere: Object\(\) would rebind w alone `
	})
	return err == nil && w.Status.Ready
}

// The object read and used before the loop, not after it (issue 80's
// R3c): no Object() after the Retry, an assignment nothing reads
// (staticcheck's SA4006).
func usedBefore(ctx context.Context, c client.Client, key client.ObjectKey) error {
	w := &v1.Widget{}
	if err := c.Get(ctx, key, w); err != nil {
		return err
	}
	n := len(w.Name)
	err := retry.RetryOnConflict(retry.DefaultRetry, func() error {
		if err := c.Get(ctx, key, w); err != nil {
			return err
		}
		w.Status.Size = n
		return c.Status().Update(ctx, w) // want `^handwritten status write to Widget`
	})
	if err != nil {
		return err
	}
	return nil
}

// Read before the loop in a loop around it: the next round reads the
// object the Retry wrote.
func usedNextRound(ctx context.Context, c client.Client, key client.ObjectKey) error {
	w := &v1.Widget{}
	for i := 0; i < 2; i++ {
		n := len(w.Name) + i
		err := retry.RetryOnConflict(retry.DefaultRetry, func() error {
			if err := c.Get(ctx, key, w); err != nil {
				return err
			}
			w.Status.Size = n
			return c.Status().Update(ctx, w) // want `^handwritten status write to Widget`
		})
		if err != nil {
			return err
		}
	}
	return nil
}
