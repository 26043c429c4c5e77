// Package migrateimpls: an object passed to a method of an interface
// whose implementations are the values the package puts in an unexported
// field or variable (karpenter's consistency controller ranges over
// c.checks, which its constructor fills with NewNodeShape(), returning
// &NodeShape{}, whose Check only reads). Each implementation given is
// judged by its body; one that changes the spec, or a value -fix does not
// follow, keeps the write.
package migrateimpls

import (
	"context"

	v1 "example.com/op/api/v1"
	"example.com/op/conds"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

type checker interface {
	check(ctx context.Context, w *v1.Widget) bool
}

// shape only reads the object.
type shape struct{ min int }

func newShape() checker { return &shape{min: 1} }

func (s *shape) check(_ context.Context, w *v1.Widget) bool { // want check:`statusOnly\[1\]`
	return w.Spec.Size >= s.min && w.Status.Size >= s.min
}

// ready reads too, and is a value.
type ready struct{}

func (ready) check(_ context.Context, w *v1.Widget) bool { return w.Status.Ready } // want check:`statusOnly\[1\]`

// grower changes the spec.
type grower struct{}

func (*grower) check(_ context.Context, w *v1.Widget) bool {
	w.Spec.Size++
	return true
}

// Controller's checks are given in its constructor only: moved.
type Controller struct {
	client.Client
	checks []checker
}

func NewController(c client.Client) *Controller {
	return &Controller{Client: c, checks: []checker{newShape(), ready{}}}
}

func (c *Controller) Reconcile(ctx context.Context, w *v1.Widget) error { // want Reconcile:"why"
	stored := w.DeepCopy()
	ok := true
	for _, ch := range c.checks {
		ok = ok && ch.check(ctx, w)
	}
	w.Status.Ready = ok
	return c.Status().Patch(ctx, w, client.MergeFrom(stored)) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example.com/op/internal/patchers\)$`
}

// One interface field, set in a method, and an append to a slice: moved.
type single struct {
	client.Client
	one  checker
	more []checker
}

func (s *single) setUp() {
	s.one = &shape{}
	s.more = append(s.more, ready{})
}

func (s *single) Reconcile(ctx context.Context, w *v1.Widget) error { // want Reconcile:"why"
	stored := w.DeepCopy()
	w.Status.Ready = s.one.check(ctx, w) && s.more[0].check(ctx, w)
	return s.Status().Patch(ctx, w, client.MergeFrom(stored)) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example.com/op/internal/patchers\)$`
}

// A package variable: moved.
var defaults = []checker{&shape{}}

func reconcileDefaults(ctx context.Context, c client.Client, w *v1.Widget) error {
	stored := w.DeepCopy()
	for _, ch := range defaults {
		w.Status.Ready = ch.check(ctx, w)
	}
	return c.Status().Patch(ctx, w, client.MergeFrom(stored)) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example.com/op/internal/patchers\)$`
}

// The adversary: one implementation given changes the spec: kept,
// naming it.
type mixed struct {
	client.Client
	checks []checker
}

func newMixed(c client.Client) *mixed {
	m := &mixed{Client: c}
	m.checks = []checker{newShape()}
	m.checks = append(m.checks, &grower{})
	return m
}

func (m *mixed) Reconcile(ctx context.Context, w *v1.Widget) error { // want Reconcile:"why"
	stored := w.DeepCopy()
	for _, ch := range m.checks {
		w.Status.Ready = ch.check(ctx, w)
	}
	return m.Status().Patch(ctx, w, client.MergeFrom(stored)) // want `\(not moved to the patcher: w is passed to checker.check at line \d+, where checks holds a \*grower \(given at line \d+\), whose grower.check runs there: w.Spec is changed at line \d+`
}

// Values from a caller: which implementation runs is not known, kept.
type open struct {
	client.Client
	checks []checker
}

func newOpen(c client.Client, cs ...checker) *open {
	return &open{Client: c, checks: cs}
}

func (o *open) Reconcile(ctx context.Context, w *v1.Widget) error { // want Reconcile:"why"
	stored := w.DeepCopy()
	for _, ch := range o.checks {
		w.Status.Ready = ch.check(ctx, w)
	}
	return o.Status().Patch(ctx, w, client.MergeFrom(stored)) // want `\(not moved to the patcher: w is passed to checker.check at line \d+, where which implementation of check runs there is not known: it is given cs at line \d+, whose dynamic type -fix does not follow`
}

// The slice handed on (a callee may store any checker in it): kept.
type leaky struct {
	client.Client
	checks []checker
}

func newLeaky(c client.Client) *leaky {
	l := &leaky{Client: c, checks: make([]checker, 1)}
	fill(l.checks)
	return l
}

func fill(cs []checker) { cs[0] = &grower{} }

func (l *leaky) Reconcile(ctx context.Context, w *v1.Widget) error { // want Reconcile:"why"
	stored := w.DeepCopy()
	w.Status.Ready = l.checks[0].check(ctx, w)
	return l.Status().Patch(ctx, w, client.MergeFrom(stored)) // want `\(not moved to the patcher: w is passed to checker.check at line \d+, where which implementation of check runs there is not known: it is given make\(\[\]checker, 1\) at line \d+, whose dynamic type -fix does not follow`
}

// An exported field: another package may set it, kept as before.
type Public struct {
	client.Client
	Checks []checker
}

func (p *Public) Reconcile(ctx context.Context, w *v1.Widget) error { // want Reconcile:"why"
	stored := w.DeepCopy()
	for _, ch := range p.Checks {
		w.Status.Ready = ch.check(ctx, w)
	}
	return p.Status().Patch(ctx, w, client.MergeFrom(stored)) // want `\(not moved to the patcher: w is passed to checker.check at line \d+ \(check is a method of an interface: which implementation runs there is not followed\)`
}

// A holder of the object handed to a method of an interface whose field
// is given nothing (karpenter's c.recorder.Publish of an events.Event
// holding the NodeClaim): kept, naming the call; the module driver
// follows it into the module's implementations (ifacecall_test.go).
type publisher interface{ publish(s conds.Set) }

type published struct {
	client.Client
	pub publisher
}

func (p *published) Reconcile(ctx context.Context, w *v1.Widget) error { // want Reconcile:"why"
	stored := w.DeepCopy()
	p.pub.publish(w.StatusConditions())
	w.Status.Ready = true
	return p.Status().Patch(ctx, w, client.MergeFrom(stored)) // want `\(not moved to the patcher: the conds.Set made at line \d+ holds w, and it is passed to publisher.publish at line \d+ \(publish is a method of an interface: which implementation runs there is followed only by statuspatch-lint -fix on the whole module\)\)`
}

// The address of a holder literal put in a local, then handed to a
// function that keeps it in an unexported field nothing else uses
// (jobset's setCondition: &eventParams{object: js} to enqueueEvent): it
// moves (lifekept.go; migrateheldfield has the class).
type event struct {
	object client.Object
	reason string
}

type queued struct {
	client.Client
	events []*event
}

func enqueue(q *queued, e *event) { q.events = append(q.events, e) }

func (q *queued) Reconcile(ctx context.Context, w *v1.Widget) error { // want Reconcile:"why"
	stored := w.DeepCopy()
	w.Status.Ready = true
	ev := &event{object: w, reason: "Ready"}
	enqueue(q, ev)
	return q.Status().Patch(ctx, w, client.MergeFrom(stored)) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example.com/op/internal/patchers\)$`
}

// The slice aliased, and an element set through the alias: kept.
type aliased struct {
	client.Client
	checks []checker
}

func newAliased(c client.Client) *aliased {
	a := &aliased{Client: c, checks: []checker{&shape{}}}
	cs := a.checks
	cs[0] = &grower{}
	return a
}

func (a *aliased) Reconcile(ctx context.Context, w *v1.Widget) error { // want Reconcile:"why"
	stored := w.DeepCopy()
	for _, ch := range a.checks {
		w.Status.Ready = ch.check(ctx, w)
	}
	return a.Status().Patch(ctx, w, client.MergeFrom(stored)) // want `where which implementation of check runs there is not known: checks is assigned or handed on at line \d+ in a way -fix does not follow`
}

// An unkeyed literal of the struct: kept.
type unkeyed struct {
	client.Client
	checks []checker
}

func newUnkeyed(c client.Client) *unkeyed { return &unkeyed{c, []checker{&grower{}}} }

func (u *unkeyed) Reconcile(ctx context.Context, w *v1.Widget) error { // want Reconcile:"why"
	stored := w.DeepCopy()
	for _, ch := range u.checks {
		w.Status.Ready = ch.check(ctx, w)
	}
	return u.Status().Patch(ctx, w, client.MergeFrom(stored)) // want `where which implementation of check runs there is not known: a literal of its struct at line \d+ is not keyed`
}
