// Sub-reconcilers set by code the walk reads only as far as the package
// shows: another package's function, an interface's method, a function
// held in a field.
package migratesublazy

import (
	"context"
	"encoding/json"
	"fmt"

	v1 "example.com/op/api/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// Lugger's sub-reconcilers are set by code the walk does not read as the
// package's own functions (s103: not followed, and each moved with its
// patcher made at the read, before the set).
type Lugger struct {
	client.Client
	Lug   *lug
	tack  *tack
	reef  *reef
	bend  *bend
	prep  readier
	hook  func()
	state []byte
}

type lug struct {
	c client.Client
}

type tack struct {
	c client.Client
}

type reef struct {
	c client.Client
}

type bend struct {
	c client.Client
}

type readier interface{ Ready() }

// lugPrep is the package's readier: l.prep.Ready() runs its Ready, which
// sets l.tack; the patcher is made after the call.
type lugPrep struct{ l *Lugger }

func (p lugPrep) Ready() { p.l.tack = &tack{c: p.l.Client} }

// String sets l.reef: fmt.Sprint, handed l, may call it; the patcher is
// made after the call.
func (l *Lugger) String() string {
	if l.reef == nil {
		l.reef = &reef{c: l.Client}
	}
	return "lugger"
}

func (t *lug) reconcile(ctx context.Context, w *v1.Widget) error {
	w.Status.Size = 11
	return t.c.Status().Update(ctx, w) // want `^handwritten status write to Widget: .* \(not moved to the patcher: w is a parameter of reconcile: its call at line 93 names its client l\.Lug\.c, which may be set after the read the patcher is made at: the call at line 90 may set it: it hands l to json\.Unmarshal, whose body is not the package's, and l reaches the exported field Lug\)$`
}

func (t *tack) reconcile(ctx context.Context, w *v1.Widget) error {
	w.Status.Size = 12
	return t.c.Status().Update(ctx, w) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example\.com/op/internal/patchers\)$`
}

func (t *reef) reconcile(ctx context.Context, w *v1.Widget) error {
	w.Status.Size = 13
	return t.c.Status().Update(ctx, w) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example\.com/op/internal/patchers\)$`
}

func (t *bend) reconcile(ctx context.Context, w *v1.Widget) error {
	w.Status.Size = 14
	return t.c.Status().Update(ctx, w) // want `^handwritten status write to Widget: .* \(not moved to the patcher: w is a parameter of reconcile: its call at line 125 names its client l\.bend\.c, which may be set after the read the patcher is made at: the call at line 124 may set it: l\.hook is a field holding a function -fix does not see\)$`
}

// load hands l to json.Unmarshal, which may set its exported field Lug:
// the write stays.
func (l *Lugger) load(ctx context.Context, key client.ObjectKey) error {
	w := &v1.Widget{}
	if err := l.Get(ctx, key, w); err != nil {
		return err
	}
	if err := json.Unmarshal(l.state, l); err != nil {
		return err
	}
	return l.Lug.reconcile(ctx, w)
}

func (l *Lugger) ready(ctx context.Context, key client.ObjectKey) error {
	w := &v1.Widget{}
	if err := l.Get(ctx, key, w); err != nil {
		return err
	}
	// Another package's function, and one another package's variable
	// holds, handed nothing of the package's: they set nothing.
	fmt.Println(key.Name, ctrl.SetControllerReference(&v1.Widget{}, &v1.Widget{}, nil))
	l.prep.Ready()
	return l.tack.reconcile(ctx, w)
}

func (l *Lugger) printed(ctx context.Context, key client.ObjectKey) error {
	w := &v1.Widget{}
	if err := l.Get(ctx, key, w); err != nil {
		return err
	}
	_ = fmt.Sprint(l)
	return l.reef.reconcile(ctx, w)
}

// hooked calls a function held in a field, which may be a literal of the
// package setting l.bend: the write stays.
func (l *Lugger) hooked(ctx context.Context, key client.ObjectKey) error {
	w := &v1.Widget{}
	if err := l.Get(ctx, key, w); err != nil {
		return err
	}
	l.hook()
	return l.bend.reconcile(ctx, w)
}

func (l *Lugger) setup() {
	l.prep = lugPrep{l: l}
	l.hook = func() { l.bend = &bend{c: l.Client} }
}
