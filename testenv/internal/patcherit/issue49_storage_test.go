package patcherit_test

import (
	"fmt"
	"testing"

	"sigs.k8s.io/controller-runtime/pkg/client"

	v1 "github.com/statuspatch/statuspatch/internal/testapi/v1"
	"github.com/statuspatch/statuspatch/patcher"
	"github.com/statuspatch/statuspatch/testenv"
)

// storageDefaultEnv is a server whose Widget CRD has two versions
// (conversion None): v1, served and read by the patcher's Go type, and
// v2, the storage version, whose schema alone gives status.phase the
// default "Pending". The server defaults what it decodes from etcd with
// the storage version's schema, then converts it to v1: a status stored
// without phase is read back with phase "Pending", which v1's schema does
// not declare.
func storageDefaultEnv(t *testing.T) *testenv.Env {
	t.Helper()
	return widgetServer(t, "the two-version", storagePhaseDefault)
}

// Issue 49, case 4: a storage version's default. Our write removes phase
// (it was Ready) and appends "mine"; the server stores the status without
// phase and reads it back with the storage version's default, Pending.
// Stored, answer lost: the first version after the base holds a phase
// this write removed, which only the storage version's schema explains.
// Before: a Conflict, and Retry wrote "mine" twice. Now: nil, the
// patcher reading the storage version's defaults too.
func TestIssue49AStorageVersionsDefaultIsExplained(t *testing.T) {
	e := storageDefaultEnv(t)
	for _, lost := range lostAnswers {
		for _, retry := range []bool{false, true} {
			t.Run(fmt.Sprintf("%s/%s", lost.name, map[bool]string{true: "Retry", false: "Flush"}[retry]), func(t *testing.T) {
				key := newWidget(t, e.Client)
				first, err := patcher.Fetch(ctx, e.Client, key, &v1.Widget{}, patcher.WithMetrics(nil), patcher.WithFieldOwner("setup"))
				if err != nil {
					t.Fatal(err)
				}
				first.Object().Status.Phase = "Ready"
				if err := first.Flush(ctx); err != nil {
					t.Fatal(err)
				}
				ft := &faultyTransport{plan: []plannedFault{lost.fault}}
				if lost.overwrite {
					other, err := client.New(e.Config, client.Options{Scheme: e.Scheme, Mapper: e.Mapper})
					if err != nil {
						t.Fatal(err)
					}
					ft.foreign = foreignAppend(other, key, "theirs")
				}
				c := faultyClient(t, e, ft)
				p, err := patcher.Fetch(ctx, c, key, &v1.Widget{}, append(historyOptions(c), patcher.WithFieldOwner("storage-default-controller"))...)
				if err != nil {
					t.Fatal(err)
				}
				runs := 0
				mutate := func(w *v1.Widget) error {
					runs++
					w.Status.Phase = ""
					return appendItem("mine")(w)
				}
				if retry {
					err = p.Retry(ctx, mutate)
				} else {
					_ = mutate(p.Object())
					err = p.Flush(ctx)
				}
				got := get(t, e.Client, key).Status
				if got.Phase != "Pending" {
					t.Fatalf("setup: phase %q, want the storage version's default", got.Phase)
				}
				if n := countOf(got.Items, "mine"); n != 1 {
					t.Fatalf("= %v after %d runs: mine stored %d times (items %v)", err, runs, n, got.Items)
				}
				wantStored(t, err, runs)
			})
		}
	}
}
