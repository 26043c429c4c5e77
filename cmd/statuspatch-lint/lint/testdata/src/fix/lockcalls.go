package fix

import (
	"context"

	v1 "example.com/api/v1"
	"example.com/op/finutil"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// A base taken before a call that writes the object: a function of the
// package updating it, or a call of another package given a client
// beside it. Locked, the patch would send the resourceVersion that write
// moved, and conflict each time (at fc01b3f both got the lock).
func (r *Reconciler) label(ctx context.Context, g *v1.Gadget) error {
	g.Labels = map[string]string{"a": "b"}
	return r.Update(ctx, g)
}

func (r *Reconciler) baseBeforeHelper(ctx context.Context, g *v1.Gadget) error {
	base := g.DeepCopyObject().(*v1.Gadget)
	if err := r.label(ctx, g); err != nil {
		return err
	}
	g.Status.Phase = "Ready"
	return r.Status().Patch(ctx, g, client.MergeFrom(base)) // want `^blind: .*client.MergeFrom without optimistic lock \(no fix: the base base is taken at line \d+, before the call at line \d+, which is given the object: label writes it \(Update at lockcalls.go:\d+\), moving the resourceVersion a lock would send: locked, this patch would conflict whenever both change; take the base after that call, or write the status first\)$`
}

func (r *Reconciler) baseBeforeExternal(ctx context.Context, g *v1.Gadget) error {
	base := g.DeepCopyObject().(*v1.Gadget)
	if err := finutil.Ensure(ctx, r.Client, g, "f"); err != nil {
		return err
	}
	g.Status.Phase = "Ready"
	return r.Status().Patch(ctx, g, client.MergeFrom(base)) // want `^blind: .*\(no fix: the base base is taken at line \d+, before the call at line \d+, which is given the object: finutil.Ensure is given a client beside it, and may update it, moving the resourceVersion a lock would send`
}

// Twin: a call that only reads the object leaves the lock.
func describe(g *v1.Gadget) string { return g.Name } // want describe:`^statusOnly\[0\]$`

func (r *Reconciler) baseBeforeReader(ctx context.Context, g *v1.Gadget) error {
	base := g.DeepCopyObject().(*v1.Gadget)
	_ = describe(g)
	g.Status.Phase = "Ready"
	return r.Status().Patch(ctx, g, client.MergeFrom(base)) // want `^blind: Status\(\)\.Patch of Gadget: client\.MergeFrom without optimistic lock$`
}
