// Package patchermode: the audit verdict of a generated patcher's writes
// follows the write mode of the options it was made with, where they are
// seen.
package patchermode

import (
	"context"

	v1 "example.com/api/v1"
	"github.com/statuspatch/statuspatch/patcher"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

type Reconciler struct {
	Client client.Client
	mode   patcher.WriteMode
}

// The no-lock mode, given to the constructor.
func noLock(ctx context.Context, c client.Client, w *v1.Widget) error {
	p := v1.NewWidgetStatusPatcher(c, w, patcher.WithFieldOwner("x"), patcher.WithWriteMode(patcher.WriteApplyWithoutLock))
	if err := p.Retry(ctx, func(*v1.Widget) error { return nil }); err != nil { // want `^blind: WidgetStatusPatcher.Retry of Widget: generated patcher made with WithWriteMode\(WriteApplyWithoutLock\): server-side apply without the lock$`
		return err
	}
	return p.Flush(ctx) // want `^blind: WidgetStatusPatcher.Flush of Widget: generated patcher made with WithWriteMode\(WriteApplyWithoutLock\): server-side apply without the lock$`
}

// The deprecated wrapper.
func deprecated(ctx context.Context, c client.Client, w *v1.Widget) error {
	p := v1.NewWidgetStatusPatcher(c, w, patcher.WithApplyWithoutLock())
	return p.Flush(ctx) // want `^blind: WidgetStatusPatcher.Flush of Widget: generated patcher made with WithApplyWithoutLock\(\): server-side apply without the lock$`
}

// Options apply in order: the later one wins.
func laterWins(ctx context.Context, c client.Client, w *v1.Widget) error {
	locked := v1.NewWidgetStatusPatcher(c, w, patcher.WithWriteMode(patcher.WriteApplyWithoutLock), patcher.WithWriteMode(patcher.WriteApply))
	if err := locked.Flush(ctx); err != nil { // want `^optimistic: WidgetStatusPatcher.Flush of Widget: generated patcher$`
		return err
	}
	unlocked := v1.NewWidgetStatusPatcher(c, w, patcher.WithWriteMode(patcher.WriteApply), patcher.WithApplyWithoutLock())
	return unlocked.Flush(ctx) // want `^blind: WidgetStatusPatcher.Flush of Widget: generated patcher made with WithApplyWithoutLock\(\): server-side apply without the lock$`
}

// A mode that is not a constant.
func (r *Reconciler) nonConstant(ctx context.Context, w *v1.Widget) error {
	p := v1.NewWidgetStatusPatcher(r.Client, w, patcher.WithWriteMode(r.mode))
	return p.Flush(ctx) // want `^unresolved: WidgetStatusPatcher.Flush of Widget: generated patcher made with WithWriteMode\(a value that is not a constant\)$`
}

// Merge and locked apply modes, given or by default, through a client
// whose defaults are seen.
func locked(ctx context.Context, mgr patcher.Manager, w *v1.Widget) error {
	c := patcher.ForManager(mgr, patcher.WithFieldOwner("x"))
	if err := v1.NewWidgetStatusPatcher(c, w).Flush(ctx); err != nil { // want `^optimistic: WidgetStatusPatcher.Flush of Widget: generated patcher$`
		return err
	}
	if err := v1.NewWidgetStatusPatcher(c, w, patcher.WithWriteMode(patcher.WriteMergePatch)).Flush(ctx); err != nil { // want `^optimistic: WidgetStatusPatcher.Flush of Widget: generated patcher$`
		return err
	}
	g := patcher.New(c, w, patcher.WithApply()) //nolint:staticcheck // the deprecated wrapper is what is tested
	return g.Flush(ctx)                         // want `^optimistic: Patcher.Flush of Widget: generated patcher$`
}

// The client's defaults: no lock for every patcher made from it, unless
// the patcher's own options say otherwise.
func clientDefaults(ctx context.Context, mgr patcher.Manager, w *v1.Widget) error {
	c := patcher.WithDefaults(patcher.ForManager(mgr), patcher.WithWriteMode(patcher.WriteApplyWithoutLock))
	if err := v1.NewWidgetStatusPatcher(c, w, patcher.WithWriteMode(patcher.WriteApply)).Flush(ctx); err != nil { // want `^optimistic: WidgetStatusPatcher.Flush of Widget: generated patcher$`
		return err
	}
	p, err := v1.FetchWidgetStatusPatcher(ctx, c, client.ObjectKeyFromObject(w))
	if err != nil {
		return err
	}
	return p.Flush(ctx) // want `^blind: WidgetStatusPatcher.Flush of Widget: generated patcher made with WithWriteMode\(WriteApplyWithoutLock\): server-side apply without the lock$`
}

// The generic patcher a generated one wraps has its mode.
func wrapped(ctx context.Context, c client.Client, w *v1.Widget) error {
	p := v1.NewWidgetStatusPatcher(c, w, patcher.WithApplyWithoutLock())
	return p.Patcher().Flush(ctx) // want `^blind: Patcher.Flush of Widget: generated patcher made with WithApplyWithoutLock\(\): server-side apply without the lock$`
}

// A patcher or a client made where the audit does not look: the default
// mode is assumed (optimistic), and the reason says what was not seen.
func fromParameter(ctx context.Context, p *v1.WidgetStatusPatcher) error {
	return p.Flush(ctx) // want `^optimistic: WidgetStatusPatcher.Flush of Widget: generated patcher \(write mode not seen: patcher from parameter p of fromParameter\)$`
}

func literal(ctx context.Context) error {
	return (&v1.WidgetStatusPatcher{}).Flush(ctx) // want `^optimistic: WidgetStatusPatcher.Flush of Widget: generated patcher \(write mode not seen: patcher from a composite literal\)$`
}

func (r *Reconciler) fromField(ctx context.Context, w *v1.Widget) error {
	p := v1.NewWidgetStatusPatcher(r.Client, w)
	return p.Flush(ctx) // want `^optimistic: WidgetStatusPatcher.Flush of Widget: generated patcher \(write mode not seen: the client's defaults\)$`
}

// Options not seen after a no-lock mode may or may not override it.
func passedOn(ctx context.Context, c client.Client, w *v1.Widget, opts ...patcher.Option) error {
	p := v1.NewWidgetStatusPatcher(c, w, append([]patcher.Option{patcher.WithApplyWithoutLock()}, opts...)...)
	return p.Flush(ctx) // want `^unresolved: WidgetStatusPatcher.Flush of Widget: generated patcher made with WithApplyWithoutLock\(\), then options not seen$`
}

// One path without the lock makes the write blind.
func eitherPath(ctx context.Context, c client.Client, w *v1.Widget, fast bool) error {
	p := v1.NewWidgetStatusPatcher(c, w)
	if fast {
		p = v1.NewWidgetStatusPatcher(c, w, patcher.WithWriteMode(patcher.WriteApplyWithoutLock))
	}
	return p.Flush(ctx) // want `^blind: WidgetStatusPatcher.Flush of Widget: generated patcher made with WithWriteMode\(WriteApplyWithoutLock\): server-side apply without the lock$`
}

// A package-level patcher and a helper of the package are followed.
var shared = v1.NewWidgetStatusPatcher(nil, nil, patcher.WithWriteMode(patcher.WriteApplyWithoutLock))

func newLocked(c client.Client, w *v1.Widget) *v1.WidgetStatusPatcher {
	return v1.NewWidgetStatusPatcher(c, w, patcher.WithWriteMode(patcher.WriteApply))
}

func helpers(ctx context.Context, c client.Client, w *v1.Widget) error {
	if err := shared.Flush(ctx); err != nil { // want `^blind: WidgetStatusPatcher.Flush of Widget: generated patcher made with WithWriteMode\(WriteApplyWithoutLock\): server-side apply without the lock$`
		return err
	}
	return newLocked(c, w).Flush(ctx) // want `^optimistic: WidgetStatusPatcher.Flush of Widget: generated patcher$`
}

// Not writes: making a patcher, or an option, is not reported.
func notWrites(c client.Client, w *v1.Widget) (*v1.WidgetStatusPatcher, patcher.Option) {
	return v1.NewWidgetStatusPatcher(c, w, patcher.WithWriteMode(patcher.WriteApplyWithoutLock)), patcher.WithApplyWithoutLock()
}
