package migratesublazy

// A function value called between the read and the write is judged by
// the functions it may be: a parameter by the arguments of the call the
// walk follows into its function (or, where no call shows them, of every
// call of that function in the package), a value a function of the
// package returns by what each of its returns gives (lws's seedFor, the
// closure seedForRole returns, handed to ScalerManager.Reconcile: kept
// at s104 as "a function value -fix does not resolve").

import (
	"context"
	"fmt"

	v1 "example.com/op/api/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// Scaler is exported, and so is its Reconcile: another package may call
// it with another seedFor, but in the calls below it runs with the one
// its caller hands it.
type Scaler struct {
	seeds map[string]int32
}

func (m *Scaler) Reconcile(ctx context.Context, w *v1.Widget, seedFor func(string) int32) error { // want Reconcile:`^statusOnly\[1\] readOnly\[0\]$`
	for _, role := range []string{"prefill", "decode"} {
		if _, ok := m.seeds[role]; !ok {
			m.seeds[role] = seedFor(role)
		}
	}
	return nil
}

// Brig hands Scaler.Reconcile the closure seeds returns, which reads a
// map and sets no client: the patcher is made at the read.
type Brig struct {
	client.Client
	Scheme  *runtime.Scheme // not a client.Client itself: its patcher takes s.Client
	Scale   *Scaler
	lighter *lighter
}

type lighter struct {
	c client.Client
}

func (s *Brig) seeds(ctx context.Context, w *v1.Widget) (func(string) int32, error) { // want seeds:`^statusOnly\[1\]$`
	if w.Spec.Size < 0 {
		return nil, fmt.Errorf("widget %s: negative size", w.Name)
	}
	sums := map[string]int32{}
	for _, r := range w.Spec.Roles {
		sums[r.Name]++
	}
	return func(role string) int32 {
		if n, ok := sums[role]; ok {
			return n
		}
		return 1
	}, nil
}

func (s *Brig) Reconcile(ctx context.Context, key client.ObjectKey) error {
	w := &v1.Widget{}
	if err := s.Get(ctx, key, w); err != nil {
		return err
	}
	seedFor, err := s.seeds(ctx, w)
	if err != nil {
		return err
	}
	if err := s.Scale.Reconcile(ctx, w, seedFor); err != nil {
		return err
	}
	return s.updateStatus(ctx, w)
}

func (s *Brig) updateStatus(ctx context.Context, w *v1.Widget) error {
	w.Status.Size = 21
	return s.Status().Update(ctx, w) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example\.com/op/internal/patchers\)$`
}

// Cutter hands Scaler.Reconcile a closure that sets its sub-reconciler
// lazily: the client is set there, after w is handed to the call, and
// the write stays, naming both.
type Cutter struct {
	client.Client
	Scale *Scaler
	coble *coble
}

type coble struct {
	c client.Client
}

func (p *coble) reconcile(ctx context.Context, w *v1.Widget) error {
	w.Status.Size = 22
	return p.c.Status().Update(ctx, w) // want `^handwritten status write to Widget: .* \(not moved to the patcher: w is a parameter of reconcile: its call at line 117 names its client k\.coble\.c, set at line 114, and w is used at line 114 between its read and there: the patcher is made where its client is set only when nothing uses w before\)$`
}

func (k *Cutter) Reconcile(ctx context.Context, key client.ObjectKey) error {
	w := &v1.Widget{}
	if err := k.Get(ctx, key, w); err != nil {
		return err
	}
	seedFor := func(role string) int32 {
		if k.coble == nil {
			k.coble = &coble{c: k.Client}
		}
		return 1
	}
	if err := k.Scale.Reconcile(ctx, w, seedFor); err != nil {
		return err
	}
	return k.coble.reconcile(ctx, w)
}

// Junk hands its Scaler to another package's function, which may call
// its exported Reconcile with a function the package does not see: the
// write stays, naming the call of seedFor.
type Junk struct {
	client.Client
	Scale  *Scaler
	wherry *wherry
}

type wherry struct {
	c client.Client
}

func (f *wherry) reconcile(ctx context.Context, w *v1.Widget) error {
	w.Status.Size = 23
	return f.c.Status().Update(ctx, w) // want `^handwritten status write to Widget: .* \(not moved to the patcher: w is a parameter of reconcile: its call at line 144 names its client y\.wherry\.c, which may be set after the read the patcher is made at: the call at line 30 may set it: seedFor is a parameter of Scaler\.Reconcile, which is exported: another package may call it with another function\)$`
}

func (y *Junk) Reconcile(ctx context.Context, key client.ObjectKey) error {
	w := &v1.Widget{}
	if err := y.Get(ctx, key, w); err != nil {
		return err
	}
	fmt.Println(y.Scale)
	return y.wherry.reconcile(ctx, w)
}

func (y *Junk) setup() {
	y.wherry = &wherry{c: y.Client}
}

// Brig's unexported reconcileWith calls its parameter prep between its
// read and its write: the package calls it twice, with a literal and a
// method value that set no client, so the patcher is made at the read.
func (s *Brig) reconcileWith(ctx context.Context, key client.ObjectKey, prep func()) error {
	w := &v1.Widget{}
	if err := s.Get(ctx, key, w); err != nil {
		return err
	}
	prep()
	return s.lighter.reconcile(ctx, w)
}

func (t *lighter) reconcile(ctx context.Context, w *v1.Widget) error {
	w.Status.Size = 24
	return t.c.Status().Update(ctx, w) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example\.com/op/internal/patchers\)$`
}

func (s *Brig) noop() {}

func (s *Brig) both(ctx context.Context, key client.ObjectKey) error {
	if err := s.reconcileWith(ctx, key, func() { fmt.Println(key) }); err != nil {
		return err
	}
	return s.reconcileWith(ctx, key, s.noop)
}

func (s *Brig) setup() {
	s.lighter = &lighter{c: s.Client}
}

// Dory's sub-reconciler is a local that a closure sets lazily: the
// local is a root like a field, and the patcher is made after the
// closure's call, where its client is set (C2's note at s104: made at the
// read, with sub.c of a nil pointer).
type Dory struct {
	client.Client
}

type oar struct {
	c client.Client
}

func (o *oar) reconcile(ctx context.Context, w *v1.Widget) error {
	w.Status.Size = 25
	return o.c.Status().Update(ctx, w) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example\.com/op/internal/patchers\)$`
}

func (d *Dory) Reconcile(ctx context.Context, key client.ObjectKey) error {
	var sub *oar
	ensure := func() {
		if sub == nil {
			sub = &oar{c: d.Client}
		}
	}
	w := &v1.Widget{}
	if err := d.Get(ctx, key, w); err != nil {
		return err
	}
	ensure()
	return sub.reconcile(ctx, w)
}
