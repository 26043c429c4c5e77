// Package fieldpatch: a patch stored in a struct field gets the verdict of
// the values the package assigns to the field, when they agree.
package fieldpatch

import (
	"context"

	v1 "example.com/api/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// Set in a constructor, used in a method.
type statusWriter struct {
	patch client.Patch
}

func newStatusWriter(base *v1.Widget) *statusWriter {
	return &statusWriter{patch: client.MergeFrom(base)}
}

func (s *statusWriter) write(ctx context.Context, c client.Client, w *v1.Widget) error {
	return c.Status().Patch(ctx, w, s.patch) // want `^blind: Status\(\).Patch of Widget: field patch assigned client.MergeFrom without optimistic lock$`
}

// Set in one method, used in another.
type lockedWriter struct {
	base client.Patch
}

func (l *lockedWriter) prepare(w *v1.Widget) { // want prepare:`^statusOnly\[0\]$`
	l.base = client.MergeFromWithOptions(w.DeepCopyObject().(*v1.Widget), client.MergeFromWithOptimisticLock{})
}

func (l *lockedWriter) write(ctx context.Context, c client.Client, w *v1.Widget) error {
	return c.Status().Patch(ctx, w, l.base) // want `^optimistic: Status\(\).Patch of Widget: field base assigned MergeFromWithOptimisticLock$`
}

// A value receiver, two assignments, both blind.
type valueWriter struct {
	p client.Patch
}

func (v valueWriter) write(ctx context.Context, c client.Client, w *v1.Widget) error {
	return c.Status().Patch(ctx, w, v.p) // want `^blind: Status\(\).Patch of Widget: field p assigned client.MergeFrom without optimistic lock$`
}

func useValueWriter(ctx context.Context, c client.Client, w *v1.Widget) {
	_ = valueWriter{p: client.MergeFrom(w)}.write(ctx, c, w)
	var vw valueWriter
	vw.p = client.StrategicMergeFrom(w)
	_ = vw.write(ctx, c, w)
}

// Mixed assignments: no verdict.
type mixedWriter struct {
	p client.Patch
}

func (m *mixedWriter) blindly(w *v1.Widget) { m.p = client.MergeFrom(w) }
func (m *mixedWriter) safely(w *v1.Widget) {
	m.p = client.MergeFromWithOptions(w, client.MergeFromWithOptimisticLock{})
}

func (m *mixedWriter) write(ctx context.Context, c client.Client, w *v1.Widget) error {
	return c.Status().Patch(ctx, w, m.p) // want `^unresolved: Status\(\).Patch of Widget: patch from field p, assigned 1 blind and 1 optimistic patches in the package$`
}

// The field's address is passed on: not every assignment is visible.
type escapingWriter struct {
	p client.Patch
}

func fill(p *client.Patch, w *v1.Widget) { *p = client.MergeFrom(w) }

func (e *escapingWriter) write(ctx context.Context, c client.Client, w *v1.Widget) error {
	e.p = client.MergeFrom(w)
	fill(&e.p, w)
	return c.Status().Patch(ctx, w, e.p) // want `^unresolved: .*patch from field p, whose address is passed on`
}

// Never assigned in the package.
type Exported struct {
	Patch client.Patch
}

func (x *Exported) write(ctx context.Context, c client.Client, w *v1.Widget) error {
	return c.Status().Patch(ctx, w, x.Patch) // want `^unresolved: .*patch from field Patch \(no assignment in the package\)$`
}

// An interface method: a dynamic call, not followed.
type patchMaker interface {
	Make(o client.Object) client.Patch
}

func viaInterface(ctx context.Context, c client.Client, m patchMaker, w *v1.Widget) error {
	return c.Status().Patch(ctx, w, m.Make(w)) // want `^unresolved: .*patch from interface method Make \(a dynamic call is not followed\)$`
}

// A generic struct: the field of every instance is the declared one.
type genericWriter[T client.Object] struct {
	p client.Patch
}

func newGenericWriter[T client.Object](base T) *genericWriter[T] {
	return &genericWriter[T]{p: client.MergeFrom(base)}
}

func (g *genericWriter[T]) write(ctx context.Context, c client.Client, obj T) error {
	return c.Status().Patch(ctx, obj, g.p) // want `^blind: Status\(\).Patch of an object of unknown kind: field p assigned client.MergeFrom without optimistic lock$`
}

func useGeneric(ctx context.Context, c client.Client, w *v1.Widget) error {
	gw := &genericWriter[*v1.Widget]{}
	gw.p = client.MergeFrom(w)
	return gw.write(ctx, c, w)
}
