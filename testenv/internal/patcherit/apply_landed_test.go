package patcherit_test

import (
	"fmt"
	"slices"
	"testing"

	apierrors "k8s.io/apimachinery/pkg/api/errors"

	v1 "github.com/statuspatch/statuspatch/internal/testapi/v1"
	"github.com/statuspatch/statuspatch/patcher"
)

// The settle of a write whose response was lost (landed.go) works for an
// apply: "stored" is every field of the apply holding the value sent on an
// object past the base. A stored apply is a success and mutate runs once;
// another writer's 409 is a Conflict for Flush and a second run for Retry.
func TestALandedApplyIsRecognised(t *testing.T) {
	e := env(t)
	for _, f := range landedCases {
		for _, retry := range []bool{false, true} {
			t.Run(fmt.Sprintf("%s/%s", f, map[bool]string{true: "Retry", false: "Flush"}[retry]), func(t *testing.T) {
				key := newWidget(t, e.Client)
				ft := &faultyTransport{plan: []plannedFault{f}, foreign: foreignAppend(ownClient(t), key, "theirs")}
				p, err := patcher.Fetch(ctx, faultyClient(t, e, ft), key, &v1.Widget{}, patcher.WithMetrics(nil), fastRetry,
					patcher.WithFieldOwner(applier), patcher.WithWriteMode(patcher.WriteApply))
				if err != nil {
					t.Fatal(err)
				}
				runs, err := decideMine(p, retry)
				got := get(t, e.Client, key)
				mine := countOf(got.Status.Items, "mine")
				switch {
				case f.kind == faultForeign && !retry:
					if !apierrors.IsConflict(err) || mine != 0 {
						t.Fatalf("Flush = %v, %d of mine stored; want a Conflict and none", err, mine)
					}
				case f.kind == faultForeign:
					if err != nil || runs != 2 || !slices.Equal(got.Status.Items, []string{"theirs", "mine"}) {
						t.Fatalf("Retry = %v after %d runs, items %v; want nil, 2 runs, [theirs mine]", err, runs, got.Status.Items)
					}
				default:
					if err != nil || runs != 1 || mine != 1 {
						t.Fatalf("%v after %d runs of mutate, items %v; want nil, 1 run, mine stored once", err, runs, got.Status.Items)
					}
					if p.Object().ResourceVersion != got.ResourceVersion || p.HasChanges() || statusManagers(got)[applier] != "Apply" {
						t.Fatalf("the object (resourceVersion %s, changes %v) is not the server's, or not applied (%v)",
							p.Object().ResourceVersion, p.HasChanges(), statusManagers(got))
					}
				}
			})
		}
	}
}
