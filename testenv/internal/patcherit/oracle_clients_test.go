package patcherit_test

import (
	"context"
	"fmt"

	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/statuspatch/statuspatch/patcher"
)

// The oracle's clients of issue 49: one that sends status writes on a
// context of its own, and one whose reads come from a cache that
// transforms its objects.

// ownContextClient sends status writes on a context of its own: the
// patcher's httptrace does not reach the request, so it cannot count the
// sends and settles every 409 (as through a client that drops the
// context). The decision's record goes along, for the oracle's transport.
type ownContextClient struct{ client.Client }

func detached(ctx context.Context) context.Context {
	return context.WithValue(context.Background(), decisionKey{}, ctx.Value(decisionKey{}))
}

func (c ownContextClient) Status() client.SubResourceWriter {
	return ownContextWriter{c.Client.Status()}
}

func (c ownContextClient) SubResource(sub string) client.SubResourceClient {
	return ownContextSubResource{c.Client.SubResource(sub)}
}

type ownContextWriter struct{ client.SubResourceWriter }

func (w ownContextWriter) Patch(ctx context.Context, obj client.Object, p client.Patch, opts ...client.SubResourcePatchOption) error {
	return w.SubResourceWriter.Patch(detached(ctx), obj, p, opts...)
}

func (w ownContextWriter) Update(ctx context.Context, obj client.Object, opts ...client.SubResourceUpdateOption) error {
	return w.SubResourceWriter.Update(detached(ctx), obj, opts...)
}

type ownContextSubResource struct{ client.SubResourceClient }

func (w ownContextSubResource) Patch(ctx context.Context, obj client.Object, p client.Patch, opts ...client.SubResourcePatchOption) error {
	return w.SubResourceClient.Patch(detached(ctx), obj, p, opts...)
}

func (w ownContextSubResource) Update(ctx context.Context, obj client.Object, opts ...client.SubResourceUpdateOption) error {
	return w.SubResourceClient.Update(detached(ctx), obj, opts...)
}

// strippingClient reads as a manager's cache with a DefaultTransform
// does: without managedFields and without lastApplied.
type strippingClient struct{ client.Client }

func (c strippingClient) Get(ctx context.Context, key client.ObjectKey, obj client.Object, opts ...client.GetOption) error {
	if err := c.Client.Get(ctx, key, obj, opts...); err != nil {
		return err
	}
	obj.SetManagedFields(nil)
	if a := obj.GetAnnotations(); a != nil {
		delete(a, lastApplied)
		obj.SetAnnotations(a)
	}
	return nil
}

// oracleWriter is one writer of a schedule: a controller with its own
// client, write mode and field manager name ("" none: the user agent).
type oracleWriter struct {
	mode    patcher.WriteMode
	manager string
	client  clientKind
	lag     lagKind
	lagN    int
	// dropsCtx: the client sends the status writes on a context of its
	// own (the patcher cannot count their sends: every 409 is settled).
	dropsCtx bool
	// strips: the client's reads come from a cache that strips
	// managedFields and kubectl's last-applied-configuration (a
	// DefaultTransform), beside the API reader.
	strips bool
	// proxied: an intermediary that resends stands before the server;
	// the writer's patchers are given WithResendingIntermediary.
	proxied bool
	// token: the writer's patchers write with the write token
	// (WithWriteToken on status.writeToken; -oracle.token).
	token bool
	// noCRDs: the writer's role may not read CustomResourceDefinitions
	// (a 403: settling has no schema; issue 81's traps).
	noCRDs bool
}

func (w oracleWriter) clientName() string {
	switch {
	case w.client == clientWatcher:
		return "watcher"
	case w.client == clientManager:
		return "ForManager"
	case w.lag == lagReader:
		return "plain, lagging reader"
	case w.lag == lagCache:
		return "plain, lagging cache"
	case w.strips:
		return "plain, transforming cache"
	}
	return "plain"
}

func (w oracleWriter) String() string {
	m := w.manager
	if m == "" {
		m = "no manager"
	}
	c := w.clientName()
	if w.lag != lagNone {
		c = fmt.Sprintf("%s ×%d", c, w.lagN)
	}
	if w.dropsCtx {
		c += ", own context"
	}
	if w.proxied {
		c += ", resending proxy"
	}
	if w.token {
		c += ", write token"
	}
	if w.noCRDs {
		c += ", CRDs 403"
	}
	return fmt.Sprintf("%s/%s/%s", w.mode, m, c)
}
