package patcherit_test

import (
	"errors"
	"net/http"
	"testing"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/statuspatch/statuspatch/patcher"
	"github.com/statuspatch/statuspatch/testenv"

	v1 "github.com/statuspatch/statuspatch/internal/testapi/v1"
)

// Issue 30, item 4: a JSON Patch (a null to store, and a remove) is stored
// and its response lost as a 500 with Retry-After; client-go sends it again
// and the server answers the resend 422 (the member to remove is gone),
// not 409. The write is stored: Flush must say so, not return Invalid.
//
// Before: Flush returned the resend's 422 (apierrors.IsInvalid) for a
// stored write.
func TestSettleAJSONPatchRemovalWhoseResendIsRefused(t *testing.T) {
	e := env(t)
	key := client.ObjectKeyFromObject(newGizmo(t, e.Client))
	first := fetchGizmo(t, e.Client, key)
	first.Object().Status.Phase = "Ready"
	first.Object().Status.Notes = map[string]*string{"b": strptr("x")}
	if err := first.Flush(ctx); err != nil {
		t.Fatal(err)
	}
	ft := &faultyTransport{plan: []plannedFault{{kind: fault5xxRetryAfter, after: true}}}
	var codes []int
	c := wrappedClient(t, e, func(rt http.RoundTripper) http.RoundTripper {
		inner := ft.wrap(rt)
		return roundTripFunc(func(req *http.Request) (*http.Response, error) {
			resp, err := inner.RoundTrip(req)
			if err == nil && req.Method == http.MethodPatch && req.URL.Query().Get("dryRun") == "" { // not the patcher's manager probe
				codes = append(codes, resp.StatusCode)
			}
			return resp, err
		})
	})
	p := fetchGizmo(t, c, key)
	p.Object().Status.Phase = ""
	p.Object().Status.Notes = map[string]*string{"a": nil, "b": strptr("x")}
	err := p.Flush(ctx)
	if stored, want := storedStatus(t, e.Client, key), `{"notes":{"a":null,"b":"x"},"owner":null}`; stored != want {
		t.Fatalf("stored %s, want %s (the write was not stored: the test's premise)", stored, want)
	}
	if len(codes) != 2 || codes[1] != http.StatusUnprocessableEntity {
		t.Fatalf("responses %v: want the injected 500, then the server's 422 to client-go's resend (the test's premise)", codes)
	}
	// The server keeps no managedFields for Gizmos (nothing shows whose
	// the first write after the base was, issue 49): stored, or Unknown;
	// never the resend's 422 nor a Conflict.
	if errors.Is(err, patcher.ErrWriteOutcomeUnknown) && !apierrors.IsConflict(err) && len(got0(t, e, key).ManagedFields) == 0 {
		return
	}
	if err != nil {
		t.Fatalf("Flush = %v for a stored write; want nil", err)
	}
	got := &v1.Gizmo{}
	if err := e.Client.Get(ctx, key, got); err != nil {
		t.Fatal(err)
	}
	if p.Object().ResourceVersion != got.ResourceVersion || p.HasChanges() {
		t.Fatalf("the object (resourceVersion %s, changes %v) is not the server's %s", p.Object().ResourceVersion, p.HasChanges(), got.ResourceVersion)
	}
}

// got0 reads the Gizmo as the server holds it.
func got0(t *testing.T, e *testenv.Env, key client.ObjectKey) *v1.Gizmo {
	t.Helper()
	g := &v1.Gizmo{}
	if err := e.Client.Get(ctx, key, g); err != nil {
		t.Fatal(err)
	}
	return g
}
