package explore

import (
	"context"
	"slices"
	"strings"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/apiutil"
)

// A List the explorer sends the server asks for the newest items. A
// kube-apiserver (1.34 on, ConsistentListFromCache, locked on) serves a
// List without a resourceVersion from the kind's watch cache once the
// cache holds etcd's current revision: after writes of other kinds only a
// progress notification brings it there, which the server asks etcd for
// at most every 100 ms, so such a List waits about half of that (33 ms
// a List of Services in a KubeRay search, two thirds of its time).
//
// Every write of a schedule goes through the explorer's clients: when
// none went to a kind since its last List, a List at least as new as
// that one (resourceVersionMatch NotOlderThan, at that List's
// resourceVersion) holds every version a consistent one would, and the
// watch cache, already there, serves it at once. The first List of a kind
// in a schedule, and the next after a write of the kind, ask for the
// newest. A write no client of the explorer made (which the model does
// not have) may reach such a List late, as it reaches an informer.

// listsSeen is, per kind, the resourceVersion of the last List of it with
// no write of it since.
type listsSeen map[schema.GroupKind]string

// wrote forgets gk's last List: a write of it is on its way.
func (l listsSeen) wrote(gk schema.GroupKind) { delete(l, gk) }

// listFresh sends Lists at least as new as the last of their kind.
type listFresh struct {
	client.WithWatch
	seen listsSeen
}

func (c listFresh) List(ctx context.Context, list client.ObjectList, opts ...client.ListOption) error {
	gvk, err := apiutil.GVKForObject(list, c.Scheme())
	lo := (&client.ListOptions{}).ApplyOptions(opts)
	if err != nil || lo.Limit > 0 || lo.Continue != "" || lo.Raw != nil && (lo.Raw.ResourceVersion != "" || lo.Raw.ResourceVersionMatch != "") {
		return c.WithWatch.List(ctx, list, opts...) // the caller's own terms
	}
	gk := schema.GroupKind{Group: gvk.Group, Kind: strings.TrimSuffix(gvk.Kind, "List")}
	rv := c.seen[gk]
	if rv != "" {
		err = c.WithWatch.List(ctx, list, append(slices.Clip(opts), notOlderThan(rv))...)
	}
	if rv == "" || err != nil {
		// The newest (or a List at least as new refused: the watch
		// cache did not get there in the server's time).
		err = c.WithWatch.List(ctx, list, opts...)
	}
	if err != nil {
		delete(c.seen, gk)
		return err
	}
	if rv := list.GetResourceVersion(); rv != "" {
		c.seen[gk] = rv
	}
	return nil
}

// notOlderThan asks for a List at least as new as a resourceVersion.
type notOlderThan string

func (rv notOlderThan) ApplyToList(o *client.ListOptions) {
	raw := metav1.ListOptions{}
	if o.Raw != nil {
		raw = *o.Raw
	}
	raw.ResourceVersion, raw.ResourceVersionMatch = string(rv), metav1.ResourceVersionMatchNotOlderThan
	o.Raw = &raw
}
