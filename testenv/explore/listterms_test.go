package explore_test

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"testing"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/apiutil"

	testv1 "github.com/statuspatch/statuspatch/internal/testapi/v1"
)

// listTerms records what each Gizmo List asks for (newest, at-least),
// against the Gizmo writes it answered: a List at least as new must be
// at least as new as the last write answered, and none after a delete
// (no revision known) until a write or a List of the newest. Each List
// at least as new is compared with a List of the newest sent after it.
//
// A List at least as new sent while the schedule knows no Gizmo revision
// is the reset's check (informers.Floors.SinceReset): at least as new as
// the previous schedule's writes, not as the reset's deletions after
// them, which a watch cache may not have reached. A kube-apiserver
// answers it at any revision from there, with or without the objects the
// reset has deleted: only an empty answer is served as the newest, and
// one that is not must be followed by a List of the newest (the explorer
// asks for it, and serves that). Which answer the server gives is fixed
// here, not left to the race: lagged, at its revision itself
// (resourceVersionMatch Exact), as a cache that has got that far and no
// further; otherwise at least as new as a List of the newest sent
// first, as a cache that has got past the reset.
type listTerms struct {
	client.Client
	lagged bool
	mu     sync.Mutex
	terms  []string
	// floor is the newest revision answered of a Gizmo write or List;
	// deleted that a Gizmo delete came after it.
	floor   uint64
	deleted bool
	// needless counts Lists of the newest when floor was known.
	needless int
	// probe is the reset's check whose answer was not empty, until the
	// next Gizmo List, which must be of the newest in its namespace.
	probe, probeNS string
	// stale, differ and served are the first List that asked for less
	// than the writes need, the first whose items a List of the newest
	// did not match, and the first reset's check not empty that was
	// served (no List of the newest after it).
	stale, differ, served string
}

func (c *listTerms) ServerClient() client.Client { return c }

// kindOf is obj's kind, typed or unstructured (as the explorer's reset
// and record check send theirs).
func (c *listTerms) kindOf(obj runtime.Object) string {
	gvk, err := apiutil.GVKForObject(obj, c.Scheme())
	if err != nil {
		return ""
	}
	return strings.TrimSuffix(gvk.Kind, "List")
}

func (c *listTerms) wrote(obj client.Object, err error) {
	if err != nil {
		return
	}
	if c.kindOf(obj) != "Gizmo" {
		return
	}
	if rv, perr := strconv.ParseUint(obj.GetResourceVersion(), 10, 64); perr == nil {
		c.mu.Lock()
		c.floor, c.deleted = max(c.floor, rv), false
		c.mu.Unlock()
	}
}

func (c *listTerms) Create(ctx context.Context, obj client.Object, opts ...client.CreateOption) error {
	err := c.Client.Create(ctx, obj, opts...)
	if c.kindOf(obj) == "Widget" && err == nil {
		// The setup's create: a schedule starts, which knows no
		// revision of a Gizmo yet.
		c.mu.Lock()
		c.floor, c.deleted = 0, false
		c.mu.Unlock()
	}
	c.wrote(obj, err)
	return err
}

func (c *listTerms) Update(ctx context.Context, obj client.Object, opts ...client.UpdateOption) error {
	err := c.Client.Update(ctx, obj, opts...)
	c.wrote(obj, err)
	return err
}

func (c *listTerms) Patch(ctx context.Context, obj client.Object, patch client.Patch, opts ...client.PatchOption) error {
	err := c.Client.Patch(ctx, obj, patch, opts...)
	c.wrote(obj, err)
	return err
}

func (c *listTerms) Delete(ctx context.Context, obj client.Object, opts ...client.DeleteOption) error {
	err := c.Client.Delete(ctx, obj, opts...)
	if c.kindOf(obj) == "Gizmo" && !apierrors.IsNotFound(err) {
		c.mu.Lock()
		c.deleted = true
		c.mu.Unlock()
	}
	return err
}

func (c *listTerms) List(ctx context.Context, list client.ObjectList, opts ...client.ListOption) error {
	if c.kindOf(list) != "Gizmo" {
		return c.Client.List(ctx, list, opts...)
	}
	lo := (&client.ListOptions{}).ApplyOptions(opts)
	term, at := "newest", uint64(0)
	if lo.Raw != nil && lo.Raw.ResourceVersionMatch == metav1.ResourceVersionMatchNotOlderThan {
		term = "at-least"
		at, _ = strconv.ParseUint(lo.Raw.ResourceVersion, 10, 64)
	}
	c.mu.Lock()
	n := len(c.terms) + 1
	probe := term == "at-least" && c.floor == 0 && !c.deleted
	switch {
	case term == "newest" && c.floor > 0 && !c.deleted:
		c.needless++
	case term == "newest":
	case c.deleted && c.stale == "":
		c.stale = fmt.Sprintf("List %d after a delete asked for at least %d, want the newest", n, at)
	case at < c.floor && c.stale == "":
		c.stale = fmt.Sprintf("List %d asked for at least %d, the last write answered %d", n, at, c.floor)
	}
	if c.probe != "" && (term != "newest" || lo.Namespace != c.probeNS) && c.served == "" {
		c.served = fmt.Sprintf("%s, and List %d after it asked for %s in %q", c.probe, n, term, lo.Namespace)
	}
	c.probe = ""
	c.terms = append(c.terms, term)
	c.mu.Unlock()
	if err := c.send(ctx, list, lo, probe, at); err != nil {
		return err
	}
	if term == "at-least" {
		var newest testv1.GizmoList
		if err := c.Client.List(ctx, &newest, client.InNamespace(lo.Namespace)); err != nil {
			return err
		}
		got, want := listed(list), listed(&newest)
		c.mu.Lock()
		switch {
		case probe && meta.LenList(list) > 0:
			c.probe = fmt.Sprintf("List %d, the reset's check, at least as new as %d held at %s %s", n, at, list.GetResourceVersion(), got)
			c.probeNS = lo.Namespace
		case got != want && c.differ == "":
			c.differ = fmt.Sprintf("List %d at least as new as %d held at %s %s, the newest (at %s) %s",
				n, at, list.GetResourceVersion(), got, newest.GetResourceVersion(), want)
		}
		c.mu.Unlock()
	}
	if rv, err := strconv.ParseUint(list.GetResourceVersion(), 10, 64); err == nil {
		c.mu.Lock()
		c.floor = max(c.floor, rv)
		if term == "newest" {
			c.deleted = false
		}
		c.mu.Unlock()
	}
	return nil
}

// send sends a Gizmo List; the reset's check (probe) at the revision
// listTerms fixes for it, at the revision at (lagged) or at least as new
// as the newest.
func (c *listTerms) send(ctx context.Context, list client.ObjectList, lo *client.ListOptions, probe bool, at uint64) error {
	if !probe {
		return c.Client.List(ctx, list, lo)
	}
	raw := *lo.Raw
	if c.lagged {
		raw.ResourceVersionMatch = metav1.ResourceVersionMatchExact
	} else {
		var newest testv1.GizmoList
		if err := c.Client.List(ctx, &newest, client.InNamespace(lo.Namespace)); err != nil {
			return err
		}
		raw.ResourceVersion = newest.GetResourceVersion()
		if n, err := strconv.ParseUint(raw.ResourceVersion, 10, 64); err != nil || n < at {
			return fmt.Errorf("a List of the newest Gizmos answered at %q, before %d", raw.ResourceVersion, at)
		}
	}
	fixed := *lo
	fixed.Raw = &raw
	return c.Client.List(ctx, list, &fixed)
}

// check fails t with the first List that asked for less than the writes
// need, held less than the newest, or was the reset's check not empty
// and served.
func (c *listTerms) check(t *testing.T) {
	t.Helper()
	if c.probe != "" && c.served == "" {
		c.served = c.probe + ", and no List after it"
	}
	for _, s := range []string{c.stale, c.differ, c.served} {
		if s != "" {
			t.Error(s)
		}
	}
}

// listed names each item of l at its resourceVersion.
func listed(l client.ObjectList) string {
	items, _ := meta.ExtractList(l)
	var out []string
	for _, it := range items {
		if o, ok := it.(client.Object); ok {
			out = append(out, o.GetName()+"@"+o.GetResourceVersion()+"/"+string(o.GetUID()))
		}
	}
	return fmt.Sprint(out)
}
