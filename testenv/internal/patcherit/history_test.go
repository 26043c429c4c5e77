package patcherit_test

import (
	"fmt"
	"slices"
	"testing"

	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/statuspatch/statuspatch/patcher"
	v1 "github.com/statuspatch/statuspatch/testenv/internal/testapi/v1"
)

// Issue 23, item 1, the case a read cannot settle: the write is stored,
// its response is lost as a 500 with Retry-After, another writer writes
// over it (from the version it produced) before client-go's own second
// send, and that second send gets the server's real 409. The object then
// holds neither the base nor this write's status; only the object's
// history tells that the first write after the base was this one.

// historyOptions are the options of the patchers under test here; c is
// the client whose requests the test sees.
func historyOptions(c client.WithWatch) []patcher.Option {
	_ = c
	return []patcher.Option{patcher.WithMetrics(nil), fastRetry}
}

// The forced sequence: our PATCH reaches the server and is stored; inside
// the transport, before the response is returned, another writer appends
// "theirs" to the version our write produced; the response becomes a 500
// ServerTimeout with Retry-After: 0; client-go sends the PATCH again and
// the server answers 409. Flush and Retry must both return nil with
// "mine" stored once and mutate run once.
func TestALandedWriteOvertakenBeforeTheResend(t *testing.T) {
	e := env(t)
	for _, retry := range []bool{false, true} {
		t.Run(map[bool]string{false: "Flush", true: "Retry"}[retry], func(t *testing.T) {
			key := newWidget(t, e.Client)
			other := ownClient(t)
			ft := &faultyTransport{plan: []plannedFault{{kind: faultOverwrittenRetryAfter, after: true}}, foreign: foreignAppend(other, key, "theirs")}
			c := faultyClient(t, e, ft)
			p, err := patcher.Fetch(ctx, c, key, &v1.Widget{}, historyOptions(c)...)
			if err != nil {
				t.Fatal(err)
			}
			runs := 0
			mutate := func(w *v1.Widget) error { runs++; return appendItem("mine")(w) }
			if retry {
				err = p.Retry(ctx, mutate)
			} else {
				_ = mutate(p.Object())
				err = p.Flush(ctx)
			}
			server := get(t, e.Client, key)
			if err != nil || runs != 1 || !slices.Equal(server.Status.Items, []string{"mine", "theirs"}) {
				t.Fatalf("%s = %v after %d runs of mutate, items %v; want nil, 1 run, [mine theirs]",
					map[bool]string{true: "Retry", false: "Flush"}[retry], err, runs, server.Status.Items)
			}
			if ft.patches != 2 {
				t.Fatalf("%d status PATCHes reached the transport; the sequence needs 2 (ours, client-go's resend)", ft.patches)
			}
			if got := p.Object(); got.ResourceVersion != server.ResourceVersion || p.HasChanges() ||
				fmt.Sprint(got.Status.Items) != fmt.Sprint(server.Status.Items) {
				t.Fatalf("the object (resourceVersion %s, items %v, changes %v) is not the server's (%s)",
					got.ResourceVersion, got.Status.Items, p.HasChanges(), server.ResourceVersion)
			}
		})
	}
}
