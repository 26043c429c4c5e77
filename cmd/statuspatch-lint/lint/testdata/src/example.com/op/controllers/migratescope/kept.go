package migratescope

import (
	"context"

	v1 "example.com/op/api/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// swapped's field is assigned after its Get: the patcher made there
// would not hold the object written.
type swapped struct {
	Widget *v1.Widget
}

func (r *Reconciler) reconcileSwapped(ctx context.Context, key client.ObjectKey) error {
	s := &swapped{Widget: &v1.Widget{}}
	if err := r.Get(ctx, key, s.Widget); err != nil {
		return err
	}
	s.Widget = s.Widget.DeepCopy()
	return r.writeSwapped(ctx, s)
}

func (r *Reconciler) writeSwapped(ctx context.Context, s *swapped) error {
	w := s.Widget
	w.Status.Ready = true
	return r.Status().Update(ctx, w) // want `\(not moved to the patcher: w is s\.Widget, the field of s, a parameter of writeSwapped: the field Widget is assigned at line 21: the patcher made after its Get would not hold what it is then\)$`
}

// handed is given to a function that changes its object's spec before
// the writing helper.
type handed struct {
	Widget *v1.Widget
}

func (r *Reconciler) reconcileHanded(ctx context.Context, key client.ObjectKey) error {
	h := &handed{Widget: &v1.Widget{}}
	if err := r.Get(ctx, key, h.Widget); err != nil {
		return err
	}
	grow(h)
	return r.writeHanded(ctx, h)
}

func grow(h *handed) { h.Widget.Spec.Size++ }

func (r *Reconciler) writeHanded(ctx context.Context, h *handed) error {
	w := h.Widget
	w.Status.Ready = true
	return r.Status().Update(ctx, w) // want `\(not moved to the patcher: w is h\.Widget, the field of h, a parameter of writeHanded: its caller at line 43: h is handed to grow at line 42, whose changes are not followed\)$`
}

// spec's helper changes the spec between its writes.
type spec struct {
	Widget *v1.Widget
}

func (r *Reconciler) reconcileSpec(ctx context.Context, key client.ObjectKey) error {
	s := &spec{Widget: &v1.Widget{}}
	if err := r.Get(ctx, key, s.Widget); err != nil {
		return err
	}
	return r.writeSpec(ctx, s)
}

func (r *Reconciler) writeSpec(ctx context.Context, s *spec) error {
	w := s.Widget
	w.Status.Ready = true
	if err := r.Status().Update(ctx, w); err != nil { // want `\(not moved to the patcher: w is s\.Widget, the field of s, a parameter of writeSpec: w.Spec is changed at line 73: `
		return err
	}
	w.Spec.Size = 1
	return r.Status().Update(ctx, w) // want `\(not moved to the patcher: w is s\.Widget, the field of s, a parameter of writeSpec: w.Spec is changed at line 73: `
}

// shared's field is built from an object another name holds.
type shared struct {
	Widget *v1.Widget
}

func (r *Reconciler) reconcileShared(ctx context.Context, key client.ObjectKey, w *v1.Widget) error {
	s := &shared{Widget: w}
	if err := r.Get(ctx, key, s.Widget); err != nil {
		return err
	}
	return r.writeShared(ctx, s)
}

func (r *Reconciler) writeShared(ctx context.Context, s *shared) error {
	w := s.Widget
	w.Status.Ready = true
	return r.Status().Update(ctx, w) // want `\(not moved to the patcher: w is s\.Widget, the field of s, a parameter of writeShared: its caller at line 87 builds s's Widget with w, not a new object \(&T\{\} or new\(T\)\) that only the field holds\)$`
}

// labelled's caller changes a label through the field before the call.
type labelled struct {
	Widget *v1.Widget
}

func (r *Reconciler) reconcileLabelled(ctx context.Context, key client.ObjectKey) error {
	s := &labelled{Widget: &v1.Widget{}}
	if err := r.Get(ctx, key, s.Widget); err != nil {
		return err
	}
	s.Widget.Labels["seen"] = "yes"
	return r.writeLabelled(ctx, s)
}

func (r *Reconciler) writeLabelled(ctx context.Context, s *labelled) error {
	w := s.Widget
	w.Status.Ready = true
	return r.Status().Update(ctx, w) // want `\(not moved to the patcher: w is s\.Widget, the field of s, a parameter of writeLabelled: its caller at line 107: s\.Widget\.Labels is used at line 106 in a way -fix does not follow \(only its values are read, compared, or a metav1\.Time's methods called\)\)$`
}

// replaced's method puts a new struct in place of the scope between the
// Get and the call: the patcher would hold the object read, the helper
// the new one.
type replaced struct {
	c      client.Client
	Widget *v1.Widget
}

func (s *replaced) refresh(fresh *v1.Widget) { *s = replaced{c: s.c, Widget: fresh} }

func (r *Reconciler) reconcileReplaced(ctx context.Context, key client.ObjectKey) error {
	s := &replaced{c: r.Client, Widget: &v1.Widget{}}
	if err := r.Get(ctx, key, s.Widget); err != nil {
		return err
	}
	s.refresh(&v1.Widget{})
	return r.writeReplaced(ctx, s)
}

func (r *Reconciler) writeReplaced(ctx context.Context, s *replaced) error {
	w := s.Widget
	w.Status.Ready = true
	return r.Status().Update(ctx, w) // want `\(not moved to the patcher: w is s\.Widget, the field of s, a parameter of writeReplaced: the scope replaced is assigned whole at line 124, its field Widget with it: the patcher made after its Get would not hold what it is then\)$`
}

// reread's method reads the object again with Get, in the caller and
// between the helper's two writes.
type reread struct {
	c      client.Client
	Widget *v1.Widget
}

func (s *reread) Close(ctx context.Context) error {
	return s.c.Get(ctx, client.ObjectKeyFromObject(s.Widget), s.Widget)
}

func (r *Reconciler) reconcileReread(ctx context.Context, key client.ObjectKey) error {
	s := &reread{c: r.Client, Widget: &v1.Widget{}}
	if err := r.Get(ctx, key, s.Widget); err != nil {
		return err
	}
	if err := s.Close(ctx); err != nil {
		return err
	}
	return r.writeReread(ctx, s)
}

func (r *Reconciler) writeReread(ctx context.Context, s *reread) error {
	w := s.Widget
	w.Status.Ready = true
	if err := r.Status().Update(ctx, w); err != nil { // want `\(not moved to the patcher: w is s\.Widget, the field of s, a parameter of writeReread: s\.Close is called at line 169, a method whose body does more than read fields of s other than Widget \(line 148\)\)$`
		return err
	}
	if err := s.Close(ctx); err != nil {
		return err
	}
	return r.Status().Update(ctx, w) // want `\(not moved to the patcher: w is s\.Widget, the field of s, a parameter of writeReread: s\.Close is called at line 169, a method whose body does more than read fields of s other than Widget \(line 148\)\)$`
}

// rereadFirst's method reads the object again in the caller only, after
// the Get the patcher would be made at.
type rereadFirst struct {
	c      client.Client
	Widget *v1.Widget
}

func (s *rereadFirst) reload(ctx context.Context) error {
	return s.c.Get(ctx, client.ObjectKeyFromObject(s.Widget), s.Widget)
}

func (r *Reconciler) reconcileRereadFirst(ctx context.Context, key client.ObjectKey) error {
	s := &rereadFirst{c: r.Client, Widget: &v1.Widget{}}
	if err := r.Get(ctx, key, s.Widget); err != nil {
		return err
	}
	if err := s.reload(ctx); err != nil {
		return err
	}
	return r.writeRereadFirst(ctx, s)
}

func (r *Reconciler) writeRereadFirst(ctx context.Context, s *rereadFirst) error {
	w := s.Widget
	w.Status.Ready = true
	return r.Status().Update(ctx, w) // want `\(not moved to the patcher: w is s\.Widget, the field of s, a parameter of writeRereadFirst: its caller at line 194: s\.reload is called at line 191, a method whose body does more than read fields of s other than Widget \(line 182\)\)$`
}

// tracked's method, called before the Get, keeps a pointer into the
// object's status in another field: judged as one called after it.
type tracked struct {
	Widget *v1.Widget
	status *v1.WidgetStatus
}

func (s *tracked) track() {
	s.status = &s.Widget.Status
}

func (r *Reconciler) reconcileTracked(ctx context.Context, key client.ObjectKey) error {
	s := &tracked{Widget: &v1.Widget{}}
	s.track()
	if err := r.Get(ctx, key, s.Widget); err != nil {
		return err
	}
	return r.writeTracked(ctx, s)
}

func (r *Reconciler) writeTracked(ctx context.Context, s *tracked) error {
	w := s.Widget
	w.Status.Ready = true
	return r.Status().Update(ctx, w) // want `\(not moved to the patcher: w is s\.Widget, the field of s, a parameter of writeTracked: its caller at line 220: s\.track is called at line 216, a method whose body does more than read fields of s other than Widget \(line 210\)\)$`
}

// reloadedEarly's method reads the object with Get before the caller's
// Get: judged as one called after it.
type reloadedEarly struct {
	c      client.Client
	Widget *v1.Widget
}

func (s *reloadedEarly) reload(ctx context.Context, key client.ObjectKey) error {
	return s.c.Get(ctx, key, s.Widget)
}

func (r *Reconciler) reconcileReloadedEarly(ctx context.Context, key client.ObjectKey) error {
	s := &reloadedEarly{c: r.Client, Widget: &v1.Widget{}}
	if err := s.reload(ctx, key); err != nil {
		return err
	}
	if err := r.Get(ctx, key, s.Widget); err != nil {
		return err
	}
	return r.writeReloadedEarly(ctx, s)
}

func (r *Reconciler) writeReloadedEarly(ctx context.Context, s *reloadedEarly) error {
	w := s.Widget
	w.Status.Ready = true
	return r.Status().Update(ctx, w) // want `\(not moved to the patcher: w is s\.Widget, the field of s, a parameter of writeReloadedEarly: its caller at line 248: s\.reload is called at line 242, a method whose body does more than read fields of s other than Widget \(line 236\)\)$`
}
