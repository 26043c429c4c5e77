package informers

import (
	"context"
	"slices"
	"strings"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/apiutil"
)

// A List without a resourceVersion asks the API server for the newest
// items, which a kube-apiserver with ConsistentListFromCache serves from
// the kind's watch cache only once the cache holds etcd's current
// revision (up to a progress notification's 100 ms later). A List at
// least as new as a revision R (resourceVersionMatch NotOlderThan) is
// served as soon as the cache gets to R. When R is the kind's floor, the
// newest revision a schedule knows of its writes and Lists with none
// after it unknown, such a List holds every version a List of the newest
// would. The floors, and why they hold, are the explorer's
// (Floors, floors.go); FreshLists sends the Lists.

// ListFloors is what a schedule knows of its kinds' newest revisions.
type ListFloors interface {
	// At is the resourceVersion a List of gk may ask to be at least as
	// new as, "" when it must ask for the newest.
	At(gk schema.GroupKind) string
	// SinceReset is the revision at which a List of gk may check that
	// the reset left its scope empty, "" for none.
	SinceReset(gk schema.GroupKind) string
	// Listed records a List of gk answered at rv; newest says it asked
	// for the newest.
	Listed(gk schema.GroupKind, rv string, newest bool)
}

// FreshLists is a client whose Lists are at least as new as their kind's
// floor (ListFloors.At); a List with a Limit, a continue token or its own
// resourceVersion goes as it is. A List of a kind with no floor asks for
// the newest, unless one at least as new as the previous schedule's
// writes (ListFloors.SinceReset) finds the scope empty. A List at least as
// new that the server refuses asks for the newest.
type FreshLists struct {
	client.WithWatch
	Floors ListFloors
}

func (c FreshLists) List(ctx context.Context, list client.ObjectList, opts ...client.ListOption) error {
	gvk, err := apiutil.GVKForObject(list, c.Scheme())
	lo := (&client.ListOptions{}).ApplyOptions(opts)
	if err != nil || lo.Limit > 0 || lo.Continue != "" || lo.Raw != nil && (lo.Raw.ResourceVersion != "" || lo.Raw.ResourceVersionMatch != "") {
		return c.WithWatch.List(ctx, list, opts...) // the caller's own terms
	}
	gk := schema.GroupKind{Group: gvk.Group, Kind: strings.TrimSuffix(gvk.Kind, "List")}
	rv := c.Floors.At(gk)
	if rv != "" {
		err = c.WithWatch.List(ctx, list, append(slices.Clip(opts), NotOlderThan(rv))...)
	} else if after := c.Floors.SinceReset(gk); after != "" {
		// The reset left the scope empty if a List as new as the
		// previous schedule's writes finds it so.
		if err := c.WithWatch.List(ctx, list, append(slices.Clip(opts), NotOlderThan(after))...); err == nil && meta.LenList(list) == 0 {
			return nil
		}
	}
	newest := rv == "" || err != nil
	if newest {
		// The newest (or a List at least as new refused: the watch
		// cache did not get there in the server's time).
		err = c.WithWatch.List(ctx, list, opts...)
	}
	if err != nil {
		return err
	}
	c.Floors.Listed(gk, list.GetResourceVersion(), newest)
	return nil
}

// NotOlderThan asks for a List at least as new as a resourceVersion.
type NotOlderThan string

func (rv NotOlderThan) ApplyToList(o *client.ListOptions) {
	raw := metav1.ListOptions{}
	if o.Raw != nil {
		raw = *o.Raw
	}
	raw.ResourceVersion, raw.ResourceVersionMatch = string(rv), metav1.ResourceVersionMatchNotOlderThan
	o.Raw = &raw
}

// StoredNothing reports a write's error answer that says the server
// stored nothing: the kind's floor stands.
func StoredNothing(err error) bool {
	return apierrors.IsConflict(err) || apierrors.IsNotFound(err) || apierrors.IsAlreadyExists(err) ||
		apierrors.IsInvalid(err) || apierrors.IsBadRequest(err) || apierrors.IsForbidden(err) ||
		apierrors.IsMethodNotSupported(err) || apierrors.IsUnsupportedMediaType(err)
}
