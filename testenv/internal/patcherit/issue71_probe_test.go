package patcherit_test

import (
	"fmt"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/rest"
	"sigs.k8s.io/controller-runtime/pkg/client"

	v1 "github.com/statuspatch/statuspatch/internal/testapi/v1"
	"github.com/statuspatch/statuspatch/patcher"
	"github.com/statuspatch/statuspatch/testenv"
)

// Issue 71, case 5: without a field owner the patcher asks the server
// which manager it names this client's writes after (a dry run). The dry
// run goes through the same field manager, cap of ten Update entries
// included: on a busy object the probe's own entry is merged into
// "ancient-changes", and the client cached that name. Every later lost
// answer through that client was then a Conflict (its real entry,
// stamped, read as another writer's), and Retry wrote twice.

// agentClient is faultyClient with its own user agent: the server names
// the manager of its writes "b-probe", which sorts right after
// "ancient-changes".
func agentClient(t *testing.T, e *testenv.Env, ft *faultyTransport) client.WithWatch {
	t.Helper()
	cfg := rest.CopyConfig(e.Config)
	cfg.UserAgent = "b-probe/v0.0.0 (issue71)"
	cfg.Wrap(ft.wrap)
	c, err := client.NewWithWatch(cfg, client.Options{Scheme: e.Scheme, Mapper: e.Mapper})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// busyWidget makes an object with ten Update entries of other controllers
// dated after any write the test makes (a client may write managedFields
// as it likes): the entry of any write now, the probe's dry run included,
// is the oldest and the first the server merges into "ancient-changes".
func busyWidget(t *testing.T, c client.Client) client.ObjectKey {
	t.Helper()
	key := newWidget(t, c)
	w := get(t, c, key)
	w.Labels = map[string]string{}
	for i := range 10 {
		w.Labels[fmt.Sprintf("l%d", i)] = "x"
	}
	if err := c.Update(ctx, w); err != nil {
		t.Fatal(err)
	}
	w = get(t, c, key)
	future := time.Now().Add(24 * time.Hour).UTC().Truncate(time.Second)
	for i := range 10 {
		w.ManagedFields = append(w.ManagedFields, metav1.ManagedFieldsEntry{Manager: fmt.Sprintf("controller-%d", i),
			Operation: metav1.ManagedFieldsOperationUpdate, APIVersion: apiV1, Time: &metav1.Time{Time: future}, FieldsType: "FieldsV1",
			FieldsV1: &metav1.FieldsV1{Raw: fmt.Appendf(nil, `{"f:metadata":{"f:labels":{"f:l%d":{}}}}`, i)}}) //nolint:staticcheck // Raw: NewFieldsV1 is k8s.io v0.37 only, and testenv is tested at the floor, v0.34
	}
	if err := c.Update(ctx, w); err != nil {
		t.Fatalf("setup: write the ten entries: %v", err)
	}
	if w = get(t, c, key); !hasManager(w, "ancient-changes") {
		t.Fatalf("setup: no ancient-changes entry: %v", w.ManagedFields)
	}
	return key
}

// The probe runs first on the busy object (its lost answer: nil or
// ErrWriteOutcomeUnknown, our entry merged away), then a lost answer on a
// quiet object through the same client: stored, our entry stamped, nil.
//
// Before: the client cached "ancient-changes", and the quiet object's
// stored write was a Conflict; Retry wrote "mine" twice.
func TestIssue71TheProbeNeverLearnsAncientChanges(t *testing.T) {
	e := env(t)
	for _, lost := range lostAnswers {
		if lost.overwrite {
			continue
		}
		for _, retry := range []bool{false, true} {
			t.Run(fmt.Sprintf("%s/%s", lost.name, retryName(retry)), func(t *testing.T) {
				busy := busyWidget(t, e.Client)
				quiet := newWidget(t, e.Client)
				ft := &faultyTransport{plan: []plannedFault{lost.fault, lost.fault}}
				c := agentClient(t, e, ft)
				for i, key := range []client.ObjectKey{busy, quiet} {
					p, err := patcher.Fetch(ctx, c, key, &v1.Widget{}, historyOptions(c)...)
					if err != nil {
						t.Fatal(err)
					}
					runs, err := decideMine(p, retry)
					got := get(t, e.Client, key)
					if n := countOf(got.Status.Items, "mine"); n != 1 {
						t.Fatalf("object %d: = %v after %d runs: mine stored %d times (items %v)", i, err, runs, n, got.Status.Items)
					}
					if i == 0 {
						wantStoredNotConflict(t, err, runs)
						continue
					}
					wantStored(t, err, runs)
				}
			})
		}
	}
}
