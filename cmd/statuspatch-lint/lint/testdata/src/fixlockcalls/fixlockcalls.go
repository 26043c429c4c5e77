// Package fixlockcalls: review R3 of 1af7c67 (no lock for a base older
// than a call that writes the object), with the calls that write it out
// of the arguments' sight, and the ones that do not write it.
package fixlockcalls

import (
	"context"

	v1 "example.com/api/v1"
	"example.com/op/readhelper"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

type Reconciler struct {
	client.Client
	labeler labeler
}

type labeler interface {
	Label(ctx context.Context, g *v1.Gadget) error
	Ready(ctx context.Context, g *v1.Gadget) bool
}

func (r *Reconciler) label(ctx context.Context, g *v1.Gadget) error {
	g.Labels = map[string]string{"a": "b"}
	return r.Update(ctx, g)
}

// A literal that captures the object and updates it.
func (r *Reconciler) baseBeforeClosure(ctx context.Context, g *v1.Gadget) error {
	base := g.DeepCopyObject().(*v1.Gadget)
	ensure := func() error {
		g.Labels = map[string]string{"a": "b"}
		return r.Update(ctx, g)
	}
	if err := ensure(); err != nil {
		return err
	}
	g.Status.Phase = "Ready"
	return r.Status().Patch(ctx, g, client.MergeFrom(base)) // want `^blind: .*\(no fix: the base base is taken at line \d+, before the call at line \d+, which is given the object: the literal at line \d+ writes it \(Update at fixlockcalls.go:\d+\)`
}

// A method value of the package's updating function.
func (r *Reconciler) baseBeforeMethodValue(ctx context.Context, g *v1.Gadget) error {
	base := g.DeepCopyObject().(*v1.Gadget)
	f := r.label
	if err := f(ctx, g); err != nil {
		return err
	}
	g.Status.Phase = "Ready"
	return r.Status().Patch(ctx, g, client.MergeFrom(base)) // want `^blind: .*\(no fix: .*which is given the object: label hands it on: label writes it \(Update at fixlockcalls.go:\d+\)`
}

// An interface's method given the object, its client out of sight.
func (r *Reconciler) baseBeforeInterface(ctx context.Context, g *v1.Gadget) error {
	base := g.DeepCopyObject().(*v1.Gadget)
	if err := r.labeler.Label(ctx, g); err != nil {
		return err
	}
	g.Status.Phase = "Ready"
	return r.Status().Patch(ctx, g, client.MergeFrom(base)) // want `^blind: .*\(no fix: .*which is given the object: Label, out of sight, is given a context beside it and returns an error, and may update it`
}

// Twin: the package's updating function given another Gadget.
func (r *Reconciler) baseBeforeOther(ctx context.Context, g, other *v1.Gadget) error {
	base := g.DeepCopyObject().(*v1.Gadget)
	if err := r.label(ctx, other); err != nil {
		return err
	}
	g.Status.Phase = "Ready"
	return r.Status().Patch(ctx, g, client.MergeFrom(base)) // want `^blind: Status\(\)\.Patch of Gadget: client\.MergeFrom without optimistic lock$`
}

// Twin: a function of the package given a client beside the object that
// only reads another object.
func (r *Reconciler) owner(ctx context.Context, c client.Client, g *v1.Gadget) (*v1.Gadget, error) { // want owner:`^statusOnly\[2\]$`
	o := &v1.Gadget{}
	err := c.Get(ctx, client.ObjectKey{Namespace: g.Namespace, Name: g.Name + "-owner"}, o)
	return o, err
}

func (r *Reconciler) baseBeforeReadingHelper(ctx context.Context, g *v1.Gadget) error {
	base := g.DeepCopyObject().(*v1.Gadget)
	if _, err := r.owner(ctx, r.Client, g); err != nil {
		return err
	}
	g.Status.Phase = "Ready"
	return r.Status().Patch(ctx, g, client.MergeFrom(base)) // want `^blind: Status\(\)\.Patch of Gadget: client\.MergeFrom without optimistic lock$`
}

// Twin: an interface's method given a context that returns no error (a
// check, migrateimpls' checker) leaves the lock.
func (r *Reconciler) baseBeforeCheck(ctx context.Context, g *v1.Gadget) error {
	base := g.DeepCopyObject().(*v1.Gadget)
	if r.labeler.Ready(ctx, g) {
		g.Status.Phase = "Ready"
	}
	return r.Status().Patch(ctx, g, client.MergeFrom(base)) // want `^blind: Status\(\)\.Patch of Gadget: client\.MergeFrom without optimistic lock$`
}

// Another package's helper given a client beside the object that only
// reads it (cluster-api's patch.NewHelper): at cb49be1 the lock was taken
// off, "NewHelper is given a client beside it, and may update it"; its
// package's analysis sees it only read the object (readsOnly).
func (r *Reconciler) baseBeforeOtherReader(ctx context.Context, g *v1.Gadget) error {
	base := g.DeepCopyObject().(*v1.Gadget)
	if _, err := readhelper.NewHelper(g, r.Client); err != nil {
		return err
	}
	g.Status.Phase = "Ready"
	return r.Status().Patch(ctx, g, client.MergeFrom(base)) // want `^blind: Status\(\)\.Patch of Gadget: client\.MergeFrom without optimistic lock$`
}

// Twin: another package's function given a client that updates the
// object keeps the patch blind.
func (r *Reconciler) baseBeforeOtherWriter(ctx context.Context, g *v1.Gadget) error {
	base := g.DeepCopyObject().(*v1.Gadget)
	if err := readhelper.Touch(ctx, r.Client, g); err != nil {
		return err
	}
	g.Status.Phase = "Ready"
	return r.Status().Patch(ctx, g, client.MergeFrom(base)) // want `^blind: .*\(no fix: .*which is given the object: readhelper\.Touch is given a client beside it, and may update it`
}

// Twin: another package's function given a client that keeps the object
// (through a function of its package) for a later write, given nothing
// (k.Flush): no readsOnly fact, the patch stays blind.
func (r *Reconciler) baseBeforeKeeper(ctx context.Context, g *v1.Gadget) error {
	base := g.DeepCopyObject().(*v1.Gadget)
	k := readhelper.NewKeeper(g, r.Client)
	if err := k.Flush(ctx); err != nil {
		return err
	}
	g.Status.Phase = "Ready"
	return r.Status().Patch(ctx, g, client.MergeFrom(base)) // want `^blind: .*\(no fix: .*which is given the object: readhelper\.NewKeeper is given a client beside it, and may update it`
}
