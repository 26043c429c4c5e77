// The client a write goes through, where the patcher -fix makes at the
// read would hold another (s112's adversary). At 68b1b549 each write
// here was moved: clientLater's patcher was made with a c not yet
// declared (the fix did not build), clientShadow's and clientReassigned's
// with the c of the read (r.Client), where the write went through
// r.Direct; clientGroup's second write, after c is set, moved with its
// first onto one patcher made with r.Client; mergeLater's patcher, made
// at the read for its decision's Retry, named a c declared after it. They
// stay, naming the line.
// A client set only after the write (clientAfter) or before the read
// (clientBefore) is the write's at the read: moved.
package advhunt2

import (
	"context"

	v1 "example.com/op/api/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// D reads through its embedded client; Direct is another (a client
// without a cache, or of another cluster).
type D struct {
	client.Client
	Direct client.Client
}

// clientLater: the writing client is declared after the read.
func (r *D) clientLater(ctx context.Context, req ctrl.Request) error {
	w := &v1.Widget{}
	if err := r.Get(ctx, req.NamespacedName, w); err != nil {
		return err
	}
	c := r.Direct
	w.Status.Ready = true
	return c.Status().Update(ctx, w) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example\.com/op/internal/patchers\)$`
}

// clientShadow: the writing client shadows the reading one.
func (r *D) clientShadow(ctx context.Context, req ctrl.Request) error {
	c := r.Client
	w := &v1.Widget{}
	if err := c.Get(ctx, req.NamespacedName, w); err != nil {
		return err
	}
	if w.Spec.Size > 0 {
		c := r.Direct
		w.Status.Ready = true
		return c.Status().Update(ctx, w) // want `\(not moved to the patcher: its client c is the c declared at line 48, after the read at line 44 where the patcher would be made: there c is the one declared at line 42, another client\)$`
	}
	return nil
}

// clientReassigned: the writing client is set after the read.
func (r *D) clientReassigned(ctx context.Context, req ctrl.Request) error {
	c := r.Client
	w := &v1.Widget{}
	if err := c.Get(ctx, req.NamespacedName, w); err != nil {
		return err
	}
	c = r.Direct
	w.Status.Ready = true
	return c.Status().Update(ctx, w) // want `\(not moved to the patcher: its client c is set at line 62, after the read at line 59 where the patcher would be made: the patcher would hold the client c held there\)$`
}

// clientGroup: the second write goes through the client set after the
// first.
func (r *D) clientGroup(ctx context.Context, req ctrl.Request) error {
	c := r.Client
	w := &v1.Widget{}
	if err := c.Get(ctx, req.NamespacedName, w); err != nil {
		return err
	}
	w.Status.Ready = true
	if err := c.Status().Update(ctx, w); err != nil { // want `\(not moved to the patcher: the status write of w at line 81 cannot be moved \(its client c is set at line 79, after the read at line 72 where the patcher would be made: the patcher would hold the client c held there\), and the writes of w in this function move together\)$`
		return err
	}
	c = r.Direct
	w.Status.Size = 2
	return c.Status().Update(ctx, w) // want `\(not moved to the patcher: its client c is set at line 79, after the read at line 72 where the patcher would be made: the patcher would hold the client c held there\)$`
}

// clientAfter: the client is set after the only write.
func (r *D) clientAfter(ctx context.Context, req ctrl.Request) (client.Client, error) {
	c := r.Client
	w := &v1.Widget{}
	if err := c.Get(ctx, req.NamespacedName, w); err != nil {
		return nil, err
	}
	w.Status.Ready = true
	err := c.Status().Update(ctx, w) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example\.com/op/internal/patchers\)$`
	c = r.Direct
	return c, err
}

// clientBefore: the client is chosen before the read.
func (r *D) clientBefore(ctx context.Context, req ctrl.Request, direct bool) error {
	c := r.Client
	if direct {
		c = r.Direct
	}
	w := &v1.Widget{}
	if err := r.Get(ctx, req.NamespacedName, w); err != nil {
		return err
	}
	w.Status.Ready = true
	return c.Status().Update(ctx, w) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example\.com/op/internal/patchers\)$`
}

// mergeLater: a merge patch decided on the status read, whose client is
// declared after the read: its patcher is made at the read, for Retry.
func (r *D) mergeLater(ctx context.Context, req ctrl.Request) error {
	w := &v1.Widget{}
	if err := r.Get(ctx, req.NamespacedName, w); err != nil {
		return err
	}
	c := r.Direct
	if !w.Status.Ready {
		base := w.DeepCopy()
		w.Status.Ready = true
		return c.Status().Patch(ctx, w, client.MergeFrom(base)) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example\.com/op/internal/patchers\)$`
	}
	return nil
}

// clientAfterUse: the object is used before its client is declared: the
// patcher, made at the read, would need c there, and the write stays.
// Since s117 clientLater and mergeLater, nothing using the object between
// the read and c's declaration (kueue's remClient :=
// group.remoteClients[name]), have the patcher made after it
// (migrateclientslide.go).
func (r *D) clientAfterUse(ctx context.Context, req ctrl.Request) error {
	w := &v1.Widget{}
	if err := r.Get(ctx, req.NamespacedName, w); err != nil {
		return err
	}
	named := w.Name != ""
	c := r.Direct
	w.Status.Ready = named
	return c.Status().Update(ctx, w) // want `\(not moved to the patcher: its client c is declared at line 139, after the read at line 135 where the patcher would be made with it\)$`
}

// s117's adversary: the object changed between the read and the
// client's declaration through a name the uses do not show (a closure
// made before the read, a pointer into its status, a client made by a
// closure that changes it, the map holding it): a patcher made after
// the declaration would take that change as its base and never send
// it, so the anchor does not slide and the writes stay.

func (r *D) slideClosure(ctx context.Context, req ctrl.Request) error {
	w := &v1.Widget{}
	mark := func() { w.Status.Ready = true }
	if err := r.Get(ctx, req.NamespacedName, w); err != nil {
		return err
	}
	mark()
	c := r.Direct
	w.Status.Size = 2
	return c.Status().Update(ctx, w) // want `not moved to the patcher`
}

func (r *D) slideStatusPtr(ctx context.Context, req ctrl.Request) error {
	w := &v1.Widget{}
	st := &w.Status
	if err := r.Get(ctx, req.NamespacedName, w); err != nil {
		return err
	}
	st.Ready = true
	c := r.Direct
	w.Status.Size = 2
	return c.Status().Update(ctx, w) // want `not moved to the patcher`
}

func (r *D) slideMk(ctx context.Context, req ctrl.Request) error {
	w := &v1.Widget{}
	mk := func() client.Client {
		w.Status.Ready = true
		return r.Direct
	}
	if err := r.Get(ctx, req.NamespacedName, w); err != nil {
		return err
	}
	c := mk()
	w.Status.Size = 2
	return c.Status().Update(ctx, w) // want `not moved to the patcher`
}

func (r *D) slideMap(ctx context.Context, objs map[string]*v1.Widget, clients map[string]client.Client, name string) error {
	w := objs[name]
	objs[name].Status.Ready = true
	c := clients[name]
	w.Status.Size = 2
	return c.Status().Update(ctx, w) // want `not moved to the patcher`
}
