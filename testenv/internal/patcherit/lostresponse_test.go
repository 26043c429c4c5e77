package patcherit_test

import (
	"errors"
	"slices"
	"strings"
	"testing"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"sigs.k8s.io/controller-runtime/pkg/client"

	v1 "github.com/statuspatch/statuspatch/internal/testapi/v1"
	"github.com/statuspatch/statuspatch/patcher"
)

// A lost response (a reset) and another writer's write before the read
// back: with a watcher, the object's history settles what the read cannot.
// Stored and then overwritten: landed, not sent again, mutate run once.
// Never stored (the other write came first): a Conflict, which Retry
// re-runs on fresh state, keeping the other writer's item. Without a
// watcher the client's own watch or lists at exact resourceVersions read
// the history (settle409_test.go); when it cannot be read both are
// ErrWriteOutcomeUnknown (TestAnUnknowableOutcomeIsReportedAsSuch).
func TestALostResponseIsSettledByTheHistory(t *testing.T) {
	e := env(t)
	// foreignAppend is another writer adding item to key's status.items.
	foreignAppend := func(key client.ObjectKey, item string) func() error {
		return func() error {
			c := ownClient(t)
			w := get(t, c, key)
			base := w.DeepCopy()
			w.Status.Items = append(w.Status.Items, item)
			return c.Status().Patch(ctx, w, client.MergeFromWithOptions(base, client.MergeFromWithOptimisticLock{}))
		}
	}
	for _, retry := range []bool{false, true} {
		t.Run("stored, overwritten, reset", func(t *testing.T) {
			key := newWidget(t, e.Client)
			ft := &faultyTransport{plan: []plannedFault{{kind: faultOverwritten, after: true}}}
			ft.foreign = foreignAppend(key, "theirs")
			c := faultyClient(t, e, ft)
			p, err := patcher.Fetch(ctx, c, key, &v1.Widget{}, historyOptions(c)...)
			if err != nil {
				t.Fatal(err)
			}
			runs, err := decideMine(p, retry)
			items := get(t, e.Client, key).Status.Items
			if err != nil || runs != 1 || !slices.Equal(items, []string{"mine", "theirs"}) {
				t.Fatalf("retry %v: %v after %d runs, server items %v; want nil after 1 run, [mine theirs]", retry, err, runs, items)
			}
		})
		t.Run("never stored, another write first", func(t *testing.T) {
			key := newWidget(t, e.Client)
			ft := &faultyTransport{plan: []plannedFault{{kind: faultForeignReset}}}
			ft.foreign = foreignAppend(key, "theirs")
			c := faultyClient(t, e, ft)
			p, err := patcher.Fetch(ctx, c, key, &v1.Widget{}, historyOptions(c)...)
			if err != nil {
				t.Fatal(err)
			}
			runs, err := decideMine(p, retry)
			items := get(t, e.Client, key).Status.Items
			if retry {
				if err != nil || runs != 2 || !slices.Equal(items, []string{"theirs", "mine"}) {
					t.Fatalf("Retry = %v after %d runs, server items %v; want nil after 2 runs, [theirs mine]", err, runs, items)
				}
				return
			}
			if !apierrors.IsConflict(err) || errors.Is(err, patcher.ErrWriteOutcomeUnknown) || !strings.Contains(err.Error(), "was not stored") ||
				!slices.Equal(items, []string{"theirs"}) {
				t.Fatalf("Flush = %v, server items %v; want a Conflict saying it was not stored, [theirs]", err, items)
			}
		})
	}
}
