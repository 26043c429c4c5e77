package migrategeneric

import (
	"context"

	v1 "example.com/op/api/v1"
	"example.com/op/internal/patchers"
	"k8s.io/client-go/util/retry"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// Issue 80's project B: a helper whose body is only the write, called
// by functions that write the object already or decide from its status.
// The calls share the patcher the function has, and a decision read
// from the status moves into its Retry; the helper, no longer called,
// goes (migrategenericonly.go).

// After the conflict loop made the Fetch and Retry of w: the same
// patcher, the readiness decided again on a conflict.
func afterLoop(ctx context.Context, c client.Client, req ctrl.Request) (ctrl.Result, error) {
	w := &v1.Widget{}
	err := retry.RetryOnConflict(retry.DefaultRetry, func() error {
		if err := c.Get(ctx, req.NamespacedName, w); err != nil {
			return err
		}
		if w.Status.Size != 0 {
			return nil
		}
		w.Status.Size = len(w.Spec.Roles)
		return c.Status().Update(ctx, w) // want `^handwritten status write to Widget`
	})
	if err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	if !w.Status.Ready {
		base := w.DeepCopy()
		w.Status.Ready = true
		if err := setStatus(ctx, c, w, base); err != nil {
			return ctrl.Result{}, err
		}
	}
	return ctrl.Result{}, nil
}

// After a write of the function's own, onto a patcher made at the Get:
// the same patcher.
func afterNew(ctx context.Context, c client.Client, key client.ObjectKey) error {
	w := &v1.Widget{}
	if err := c.Get(ctx, key, w); err != nil {
		return err
	}
	w.Status.Size = 3
	if err := c.Status().Update(ctx, w); err != nil { // want `^handwritten status write to Widget`
		return err
	}
	if !w.Status.Ready {
		base := w.DeepCopy()
		w.Status.Ready = true
		if err := setStatus(ctx, c, w, base); err != nil {
			return err
		}
	}
	return nil
}

// A List's items, cached copies: each its patcher, the decision in
// Retry, never a plain Flush.
func claim(ctx context.Context, c client.Client) error {
	var list widgetItems
	if err := c.List(ctx, &list); err != nil {
		return err
	}
	for i := range list.Items {
		it := &list.Items[i]
		if it.Status.Size != 7 {
			base := it.DeepCopy()
			it.Status.Size = 7
			if err := setStatus(ctx, c, it, base); err != nil {
				return err
			}
		}
	}
	return nil
}

// patchPlain's caller decides nothing from the status: a Flush.
func patchPlain[T client.Object](ctx context.Context, c client.Client, obj, base T) error {
	return c.Status().Patch(ctx, obj, client.MergeFrom(base)) // want `^handwritten status write to an object of unknown kind`
}

// An early return through the helper, a write of the function's own
// after it: exclusive paths, one patcher.
func early2(ctx context.Context, c client.Client, key client.ObjectKey) error {
	w := &v1.Widget{}
	if err := c.Get(ctx, key, w); err != nil {
		return err
	}
	if w.Spec.Size == 0 {
		base := w.DeepCopy()
		w.Status.Ready = false
		return patchPlain(ctx, c, w, base)
	}
	w.Status.Size = w.Spec.Size
	return c.Status().Update(ctx, w) // want `^handwritten status write to Widget`
}

// The function's own patcher is made in a branch that returns: not in
// scope at the call, which makes its own after that branch.
func branch(ctx context.Context, c client.Client, key client.ObjectKey) error {
	w := &v1.Widget{}
	if err := c.Get(ctx, key, w); err != nil {
		return err
	}
	if w.Spec.Size > 5 {
		w.Labels = map[string]string{"big": "yes"}
		if err := c.Update(ctx, w); err != nil {
			return err
		}
		b1 := w.DeepCopy()
		w.Status.Size = 5
		return c.Status().Patch(ctx, w, client.MergeFrom(b1)) // want `^handwritten status write to Widget`
	}
	base := w.DeepCopy()
	w.Status.Size = w.Spec.Size
	return patchPlain(ctx, c, w, base)
}

// Read with Get, no write of its own: the patcher made at the Get, the
// decision in Retry.
func fresh(ctx context.Context, c client.Client, key client.ObjectKey) error {
	w := &v1.Widget{}
	if err := c.Get(ctx, key, w); err != nil {
		return err
	}
	if w.Status.Size < 10 {
		base := w.DeepCopy()
		w.Status.Size++
		if err := setStatus(ctx, c, w, base); err != nil {
			return err
		}
	}
	return nil
}

// A List's item whose status is decided by a call to the cluster: it
// cannot run again inside Retry, and a Flush of the cached copy would be
// refused when the cache lags. The helper stays.
func patchItem[T client.Object](ctx context.Context, c client.Client, obj, base T) error {
	return c.Status().Patch(ctx, obj, client.MergeFrom(base)) // want `^handwritten status write to an object of unknown kind.*\(not moved to the patcher: its caller at line 162 passes it: its decision cannot move into Retry: the call look at line 161 takes a context, and look calls c\.Create at line 169, a write to the cluster, which a retry would repeat, and it is an item of a list at line 159, a cached copy: make its patcher with FetchWidgetStatusPatcher\(ctx, c, client.ObjectKeyFromObject\(it\)\), which reads it fresh, and Flush it here\)$`
}

func claimLooked(ctx context.Context, c client.Client) error {
	var list widgetItems
	if err := c.List(ctx, &list); err != nil {
		return err
	}
	for i := range list.Items {
		it := &list.Items[i]
		base := it.DeepCopy()
		it.Status.Size = look(ctx, c)
		if err := patchItem(ctx, c, it, base); err != nil {
			return err
		}
	}
	return nil
}

func look(ctx context.Context, c client.Client) int { _ = c.Create(ctx, &v1.Widget{}); return 1 }

// A patcher the code fetched itself, its object taken from it: the call
// passes it; the guard stays around the Retry, the object's last use.
func ownFetch(ctx context.Context, c client.Client, key client.ObjectKey) error {
	wp, err := patchers.FetchWidgetStatusPatcher(ctx, c, key)
	if err != nil {
		return err
	}
	w := wp.Object()
	if w.Status.Size == 0 {
		base := w.DeepCopy()
		w.Status.Size = 1
		if err := setStatus(ctx, c, w, base); err != nil {
			return err
		}
	}
	return nil
}

// A patcher the code made at the read and flushed: the object is what
// it holds after the Flush, and the call passes it.
func ownNew(ctx context.Context, c client.Client, key client.ObjectKey) error {
	w := &v1.Widget{}
	if err := c.Get(ctx, key, w); err != nil {
		return err
	}
	wp := patchers.NewWidgetStatusPatcher(c, w)
	w.Status.Size = 2
	if err := wp.Flush(ctx); err != nil {
		return err
	}
	if !w.Status.Ready {
		base := w.DeepCopy()
		w.Status.Ready = true
		if err := setStatus(ctx, c, w, base); err != nil {
			return err
		}
	}
	return nil
}

// The object reassigned after the code's patcher, read again under
// another key: the call must not pass the old patcher, whose object is
// the first Widget (its Flush would send nothing); it gets its own,
// made at the second read.
func ownNewReassigned(ctx context.Context, c client.Client, key, other client.ObjectKey) error {
	w := &v1.Widget{}
	if err := c.Get(ctx, key, w); err != nil {
		return err
	}
	wp := patchers.NewWidgetStatusPatcher(c, w)
	w.Status.Size = 2
	if err := wp.Flush(ctx); err != nil {
		return err
	}
	w = &v1.Widget{}
	if err := c.Get(ctx, other, w); err != nil {
		return err
	}
	if !w.Status.Ready {
		base := w.DeepCopy()
		w.Status.Ready = true
		if err := setStatus(ctx, c, w, base); err != nil {
			return err
		}
	}
	return nil
}

// Read again into the same object after the code's patcher: the
// patcher's base is the first read, so the call gets its own patcher,
// made at the second.
func ownNewReread(ctx context.Context, c client.Client, key, other client.ObjectKey) error {
	w := &v1.Widget{}
	if err := c.Get(ctx, key, w); err != nil {
		return err
	}
	wp := patchers.NewWidgetStatusPatcher(c, w)
	w.Status.Size = 2
	if err := wp.Flush(ctx); err != nil {
		return err
	}
	if err := c.Get(ctx, other, w); err != nil {
		return err
	}
	if !w.Status.Ready {
		base := w.DeepCopy()
		w.Status.Ready = true
		if err := setStatus(ctx, c, w, base); err != nil {
			return err
		}
	}
	return nil
}

// The function's own write moves onto a patcher made at the first read;
// the object is then reassigned and read under another key: the call
// gets its own patcher, made at the second read, not the first's.
func ownWriteReassigned(ctx context.Context, c client.Client, key, other client.ObjectKey) error {
	w := &v1.Widget{}
	if err := c.Get(ctx, key, w); err != nil {
		return err
	}
	w.Status.Size = 4
	if err := c.Status().Update(ctx, w); err != nil { // want `^handwritten status write to Widget`
		return err
	}
	w = &v1.Widget{}
	if err := c.Get(ctx, other, w); err != nil {
		return err
	}
	if !w.Status.Ready {
		base := w.DeepCopy()
		w.Status.Ready = true
		if err := setStatus(ctx, c, w, base); err != nil {
			return err
		}
	}
	return nil
}

// Its caller takes the base after the status changes: the patch sends
// nothing. A patcher made at that base would send nothing too, and the
// lock only the resourceVersion: the write stays, named, without a fix.
func patchLate[T client.Object](ctx context.Context, c client.Client, obj, base T) error {
	return c.Status().Patch(ctx, obj, client.MergeFrom(base)) // want `^handwritten status write to an object of unknown kind.*\(not moved to the patcher: its caller at line 306 passes w with a base taken after its status changes at line 304, and nothing changes w between the base and the call: the patch sends nothing\..*\(no fix: a lock would make that call send only the resourceVersion: it stores nothing, and may conflict\)$`
}

func lateBase(ctx context.Context, c client.Client, key client.ObjectKey) error {
	w := &v1.Widget{}
	if err := c.Get(ctx, key, w); err != nil {
		return err
	}
	if !w.Status.Ready {
		w.Status.Ready = true
		base := w.DeepCopy()
		return patchLate(ctx, c, w, base)
	}
	return nil
}

// The patcher's variable made another object's patcher (and flushed)
// before the call: the call must not pass it (its Flush would write the
// other Widget, this one's readiness lost); it gets its own patcher.
func ownNewRepointed(ctx context.Context, c client.Client, key, other client.ObjectKey) error {
	w := &v1.Widget{}
	if err := c.Get(ctx, key, w); err != nil {
		return err
	}
	wp := patchers.NewWidgetStatusPatcher(c, w)
	w.Status.Size = 2
	if err := wp.Flush(ctx); err != nil {
		return err
	}
	o := &v1.Widget{}
	if err := c.Get(ctx, other, o); err != nil {
		return err
	}
	wp = patchers.NewWidgetStatusPatcher(c, o)
	o.Status.Size = 3
	if err := wp.Flush(ctx); err != nil {
		return err
	}
	base := w.DeepCopy()
	w.Status.Ready = true
	return patchPlain(ctx, c, w, base)
}

// The patcher's name is another variable's at the call (an if's init
// declares it): passing it would not compile; the call gets its own.
func ownNewShadowed(ctx context.Context, c client.Client, key client.ObjectKey) error {
	w := &v1.Widget{}
	if err := c.Get(ctx, key, w); err != nil {
		return err
	}
	wp := patchers.NewWidgetStatusPatcher(c, w)
	w.Status.Size = 2
	if err := wp.Flush(ctx); err != nil {
		return err
	}
	if wp := len(w.Name); wp > 0 {
		base := w.DeepCopy()
		w.Status.Ready = true
		if err := patchPlain(ctx, c, w, base); err != nil {
			return err
		}
	}
	return nil
}

// An Update through the helper after the object is reassigned and read
// under another key: the code's patcher holds the first Widget, so the
// call gets a patcher made at the second read.
func updateReassigned(ctx context.Context, c client.Client, key, other client.ObjectKey) error {
	w := &v1.Widget{}
	if err := c.Get(ctx, key, w); err != nil {
		return err
	}
	wp := patchers.NewWidgetStatusPatcher(c, w)
	w.Status.Size = 2
	if err := wp.Flush(ctx); err != nil {
		return err
	}
	w = &v1.Widget{}
	if err := c.Get(ctx, other, w); err != nil {
		return err
	}
	w.Status.Ready = true
	return updateAny(ctx, c, w)
}

// The same, read again into the same object: the patcher's base is the
// first Widget's, its Flush would not send what the Update does.
func updateReread(ctx context.Context, c client.Client, key, other client.ObjectKey) error {
	w := &v1.Widget{}
	if err := c.Get(ctx, key, w); err != nil {
		return err
	}
	wp := patchers.NewWidgetStatusPatcher(c, w)
	w.Status.Size = 2
	if err := wp.Flush(ctx); err != nil {
		return err
	}
	if err := c.Get(ctx, other, w); err != nil {
		return err
	}
	w.Status.Ready = true
	return updateAny(ctx, c, w)
}

// The function's own write moves onto a patcher made at the first read,
// then the object is read under another key: the Update through the
// helper gets its own patcher, made at that read.
func updateOwnReread(ctx context.Context, c client.Client, key, other client.ObjectKey) error {
	w := &v1.Widget{}
	if err := c.Get(ctx, key, w); err != nil {
		return err
	}
	w.Status.Size = 4
	if err := c.Status().Update(ctx, w); err != nil { // want `^handwritten status write to Widget`
		return err
	}
	if err := c.Get(ctx, other, w); err != nil {
		return err
	}
	w.Status.Ready = true
	return updateAny(ctx, c, w)
}

// A value computed from the status before the decision: in Retry's
// mutate it would be the value before, written again over the fresh
// object on a conflict. The write is a Flush (the 409 returned, as the
// Update's), not a Retry.
func staleNext(ctx context.Context, c client.Client, key client.ObjectKey) error {
	w := &v1.Widget{}
	if err := c.Get(ctx, key, w); err != nil {
		return err
	}
	next := w.Status.Size + 1
	if !w.Status.Ready {
		w.Status.Ready = true
		w.Status.Size = next
		if err := c.Status().Update(ctx, w); err != nil { // want `^handwritten status write to Widget`
			return err
		}
	}
	return nil
}

// A flag set under an if reading the status, through the helper: a
// patcher made at the base, Flush.
func staleFlag(ctx context.Context, c client.Client, key client.ObjectKey) error {
	w := &v1.Widget{}
	if err := c.Get(ctx, key, w); err != nil {
		return err
	}
	big := false
	if w.Status.Size > 3 {
		big = true
	}
	if !w.Status.Ready {
		base := w.DeepCopy()
		w.Status.Ready = big
		if err := patchPlain(ctx, c, w, base); err != nil {
			return err
		}
	}
	return nil
}

// A copy of the object taken before the decision and read in it: in
// mutate it would hold the status before a conflict's re-read (the
// object itself is refreshed in place). A Flush.
func staleCopy(ctx context.Context, c client.Client, key client.ObjectKey) error {
	w := &v1.Widget{}
	if err := c.Get(ctx, key, w); err != nil {
		return err
	}
	old := w.DeepCopy()
	if !w.Status.Ready {
		w.Status.Ready = true
		w.Status.Size = old.Status.Size + 1
		if err := c.Status().Update(ctx, w); err != nil { // want `^handwritten status write to Widget`
			return err
		}
	}
	return nil
}

// The status changed through another name (st, its address) after the
// base: the patch sends it. Not a late base (lateBase sees no change by
// w's name after it); a patcher made at the base, Flush.
func aliasAfterBase(ctx context.Context, c client.Client, key client.ObjectKey) error {
	w := &v1.Widget{}
	if err := c.Get(ctx, key, w); err != nil {
		return err
	}
	st := &w.Status
	if !st.Ready {
		base := w.DeepCopy()
		st.Ready = true
		if err := patchPlain(ctx, c, w, base); err != nil {
			return err
		}
	}
	return nil
}

// widgetItems is what a List fills: items the cache holds.
type widgetItems struct {
	client.ObjectList
	Items []v1.Widget
}

// Its caller changes the status only in a branch that returns before the
// base: on the call's path the base is the read's, not late, and the
// call moves (at cf96f03 it stayed, the reason naming that branch's
// change: "a base taken after its status changes at line 518").
func patchAfterBranch[T client.Object](ctx context.Context, c client.Client, obj, base T) error {
	return c.Status().Patch(ctx, obj, client.MergeFrom(base)) // want `^handwritten status write to an object of unknown kind: use the generated status patcher of the object's concrete type$`
}

func lateBaseBranch(ctx context.Context, c client.Client, key client.ObjectKey) error {
	w := &v1.Widget{}
	if err := c.Get(ctx, key, w); err != nil {
		return err
	}
	if w.Spec.Size == 0 {
		w.Status.Ready = false
		return c.Status().Update(ctx, w) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example.com/op/internal/patchers\)$`
	}
	base := w.DeepCopy()
	return patchAfterBranch(ctx, c, w, base)
}
