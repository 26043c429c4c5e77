// Reads whose patcher -fix does not make, for the reason they stay
// (s112's adversary). At 68b1b549 readInBranches, readInBlock,
// readInLoop and readInSwitch stayed saying w "is not read with Get in"
// the function, which it is, in a block the write is not in; and
// derefReplace said w "is passed on or aliased", where *w is assigned;
// assertedIf and typeSwitch said w and o were "not read with Get", where
// the obj they assert is. Each now names what it does.
package advhunt2

import (
	"context"

	v1 "example.com/op/api/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// readInBranches: the object is read in either branch of an if.
func (r *R) readInBranches(ctx context.Context, req ctrl.Request, other client.ObjectKey) error {
	w := &v1.Widget{}
	if other.Name != "" {
		if err := r.Get(ctx, other, w); err != nil {
			return err
		}
	} else {
		if err := r.Get(ctx, req.NamespacedName, w); err != nil {
			return err
		}
	}
	w.Status.Ready = true
	return r.Status().Update(ctx, w) // want `\(not moved to the patcher: w is read with Get at line 22 inside the if statement at line 21, which the write is not in: the patcher -fix makes after a Get would not be in scope at the write; make NewWidgetStatusPatcher after that if statement and call its Flush\(ctx\) here\)$`
}

// readInBlock: the object is read in a block.
func (r *R) readInBlock(ctx context.Context, req ctrl.Request) error {
	var w *v1.Widget
	{
		w = &v1.Widget{}
		if err := r.Get(ctx, req.NamespacedName, w); err != nil {
			return err
		}
	}
	w.Status.Ready = true
	return r.Status().Update(ctx, w) // want `\(not moved to the patcher: w is read with Get at line 39 inside the block at line 37, which the write is not in: the patcher -fix makes after a Get would not be in scope at the write; make NewWidgetStatusPatcher after that block and call its Flush\(ctx\) here\)$`
}

// readInLoop: the object is read in a loop that ends when it succeeds.
func (r *R) readInLoop(ctx context.Context, req ctrl.Request) error {
	w := &v1.Widget{}
	for attempt := 0; ; attempt++ {
		err := r.Get(ctx, req.NamespacedName, w)
		if err == nil {
			break
		}
		if attempt > 3 {
			return err
		}
	}
	w.Status.Ready = true
	return r.Status().Update(ctx, w) // want `\(not moved to the patcher: w is read with Get at line 51 inside the for loop at line 50, which the write is not in: the patcher -fix makes after a Get would not be in scope at the write; make NewWidgetStatusPatcher after that for loop and call its Flush\(ctx\) here\)$`
}

// readInSwitch: the object is read in a switch's cases.
func (r *R) readInSwitch(ctx context.Context, req ctrl.Request, other client.ObjectKey) error {
	w := &v1.Widget{}
	var err error
	switch {
	case other.Name != "":
		err = r.Get(ctx, other, w)
	default:
		err = r.Get(ctx, req.NamespacedName, w)
	}
	if err != nil {
		return err
	}
	w.Status.Ready = true
	return r.Status().Update(ctx, w) // want `\(not moved to the patcher: w is read with Get at line 69 inside the switch at line 67, which the write is not in: the patcher -fix makes after a Get would not be in scope at the write; make NewWidgetStatusPatcher after that switch and call its Flush\(ctx\) here\)$`
}

// derefReplace: the object's value is replaced through its pointer by a
// second read.
func (r *R) derefReplace(ctx context.Context, req ctrl.Request) error {
	w := &v1.Widget{}
	if err := r.Get(ctx, req.NamespacedName, w); err != nil {
		return err
	}
	latest := &v1.Widget{}
	if err := r.Get(ctx, req.NamespacedName, latest); err != nil {
		return err
	}
	*w = *latest
	w.Status.Ready = true
	return r.Status().Update(ctx, w) // want `\(not moved to the patcher: \*w is assigned whole at line 91: it may change the object's identity \(its name, namespace, uid or resourceVersion; ObjectMeta or TypeMeta whole\), which the status write follows and the patcher made at the read does not\)$`
}

// assertedIf: the object is read as a client.Object, asserted in an if.
func (r *R) assertedIf(ctx context.Context, req ctrl.Request) error {
	var obj client.Object = &v1.Widget{}
	if err := r.Get(ctx, req.NamespacedName, obj); err != nil {
		return err
	}
	if w, ok := obj.(*v1.Widget); ok {
		w.Status.Ready = true
		return r.Status().Update(ctx, w) // want `\(not moved to the patcher: w is obj asserted at line 102, and obj is read with Get at line 99: -fix makes the patcher at a Get of the variable the write writes; make NewWidgetStatusPatcher after the assertion and call its Flush\(ctx\) here\)$`
	}
	return nil
}

// typeSwitch: the object is asserted in a type switch.
func (r *R) typeSwitch(ctx context.Context, req ctrl.Request) error {
	var obj client.Object = &v1.Widget{}
	if err := r.Get(ctx, req.NamespacedName, obj); err != nil {
		return err
	}
	switch o := obj.(type) {
	case *v1.Widget:
		o.Status.Ready = true
		return r.Status().Update(ctx, o) // want `\(not moved to the patcher: o is obj asserted at line 115, and obj is read with Get at line 112: -fix makes the patcher at a Get of the variable the write writes; make NewWidgetStatusPatcher after the assertion and call its Flush\(ctx\) here\)$`
	}
	return nil
}
