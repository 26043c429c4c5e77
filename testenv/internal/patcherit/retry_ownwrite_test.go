package patcherit_test

import (
	"errors"
	"testing"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"sigs.k8s.io/controller-runtime/pkg/client"

	v1 "github.com/statuspatch/statuspatch/internal/testapi/v1"
	"github.com/statuspatch/statuspatch/patcher"
)

// kubebuilder's deploy-image Reconcile as -fix writes it: one patcher made
// at the read, the caller's own write outside the status (a finalizer
// added with a merge patch, which no resourceVersion locks), then the
// decision in Retry, and a deferred Flush of a failure condition after
// it. When another writer stored the status between the read and that
// write, its answer brings their status: Retry decides from it, once,
// locked on the version of the caller's write (it returned a Conflict,
// the decision left to the next reconcile); the later Flush sends only
// its own change. A status change of the caller's made before its write
// (after its write) is never sent by Retry nor dropped silently: Retry
// refuses it.
func TestRetryAfterTheCallersOwnWrite(t *testing.T) {
	e := env(t)
	for _, tc := range []struct {
		name           string
		other, pending bool
	}{
		{name: "alone"},
		{name: "another writer first", other: true},
		{name: "a change of the caller's pending", pending: true},
		{name: "another writer first, a change pending", other: true, pending: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			key := newWidget(t, e.Client)
			w := &v1.Widget{}
			if err := e.Client.Get(ctx, key, w); err != nil {
				t.Fatal(err)
			}
			p := patcher.New(e.Client, w)
			if tc.other {
				o := get(t, e.Client, key)
				o.Status.Items = []string{"other"}
				if err := e.Client.Status().Update(ctx, o); err != nil {
					t.Fatal(err)
				}
			}
			before := w.DeepCopy()
			w.Finalizers = append(w.Finalizers, "widgets.example.com/finalizer")
			if err := e.Client.Patch(ctx, w, client.MergeFrom(before)); err != nil {
				t.Fatal(err)
			}
			wrote := get(t, e.Client, key)
			if tc.pending {
				w.Status.Phase = "Local" // after the write: its answer cannot have cleared it
			}
			runs := 0
			err := p.Retry(ctx, func(w *v1.Widget) error {
				runs++
				w.Status.Phase = "Decided"
				return nil
			})
			stored := get(t, e.Client, key)
			if tc.pending {
				// Retry refuses the caller's change, sending nothing.
				if !errors.Is(err, patcher.ErrPendingChanges) && !apierrors.IsConflict(err) || runs != 0 || stored.ResourceVersion != wrote.ResourceVersion {
					t.Fatalf("Retry = %v after %d runs, stored %+v at %s (written at %s); want it refused, nothing sent",
						err, runs, stored.Status, stored.ResourceVersion, wrote.ResourceVersion)
				}
				return
			}
			if err != nil || runs != 1 || stored.Status.Phase != "Decided" {
				t.Fatalf("Retry = %v after %d runs, stored %+v; want it stored once", err, runs, stored.Status)
			}
			if want := tc.other; (len(stored.Status.Items) == 1) != want {
				t.Fatalf("stored items %v; another writer's kept: %v", stored.Status.Items, want)
			}
			w.Status.Phase = "Failed"
			if err := p.Flush(ctx); err != nil {
				t.Fatalf("Flush after Retry = %v; want the failure written", err)
			}
			if stored := get(t, e.Client, key); stored.Status.Phase != "Failed" || len(stored.Finalizers) != 1 || (len(stored.Status.Items) == 1) != tc.other {
				t.Fatalf("stored %+v %v after Flush", stored.Status, stored.Finalizers)
			}
		})
	}
}
