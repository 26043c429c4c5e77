package patcherit_test

import (
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"sigs.k8s.io/controller-runtime/pkg/client"

	v1 "github.com/statuspatch/statuspatch/internal/testapi/v1"
	"github.com/statuspatch/statuspatch/patcher"
	"github.com/statuspatch/statuspatch/testenv"
)

// Issue 81: a write token counts only where the server has shown that it
// stores it. Where the CRD in the cluster prunes status.writeToken (the
// release before the controller's, or a storage version without it),
// every write is stored without its token: the token must decide nothing,
// and its own value must be no change for the other evidence.

// withoutWriteToken drops status.writeToken from a CRD version's schema.
func withoutWriteToken(v *apiextensionsv1.CustomResourceDefinitionVersion) {
	status := v.Schema.OpenAPIV3Schema.Properties["status"]
	delete(status.Properties, "writeToken")
	v.Schema.OpenAPIV3Schema.Properties["status"] = status
}

// tokenlessStorage serves v1, the patcher's type with status.writeToken,
// and stores v1beta1, the previous release's, without it (conversion
// None): the server prunes every write to v1beta1's schema.
func tokenlessStorage(crd *apiextensionsv1.CustomResourceDefinition) {
	served := crd.Spec.Versions[0]
	served.Storage = false
	stored := *served.DeepCopy()
	stored.Name, stored.Storage = "v1beta1", true
	withoutWriteToken(&stored)
	crd.Spec.Versions = []apiextensionsv1.CustomResourceDefinitionVersion{served, stored}
}

// tokenlessCRD is the CRD of the release before the token: no version
// has status.writeToken.
func tokenlessCRD(crd *apiextensionsv1.CustomResourceDefinition) {
	for i := range crd.Spec.Versions {
		withoutWriteToken(&crd.Spec.Versions[i])
	}
}

// crdReads are the two roles: one that may get CRDs, one that may not (a
// 403, the usual operator role).
var crdReads = []bool{true, false}

func crdReadName(read bool) string {
	return map[bool]string{true: "CRDs readable", false: "CRDs 403"}[read]
}

// tokenClient is a client on e through ft whose gets of CRDs are refused
// with a 403 unless readCRDs.
func tokenClient(t *testing.T, e *testenv.Env, ft *faultyTransport, readCRDs bool) client.WithWatch {
	t.Helper()
	return wrappedClient(t, e, func(rt http.RoundTripper) http.RoundTripper {
		if readCRDs {
			return ft.wrap(rt)
		}
		return forbidCRDs(ft.wrap(rt))
	})
}

// wantPrunedReport checks that an Unknown outcome says the token is
// pruned and what to do.
func wantPrunedReport(t *testing.T, err error) {
	t.Helper()
	if errors.Is(err, patcher.ErrWriteOutcomeUnknown) && !strings.Contains(err.Error(), "apply the current CRDs") {
		t.Fatalf("the Unknown outcome does not report the pruned token: %v", err)
	}
}

// Issue 81, case 1: the storage version drops the token. Our write is
// stored, its answer lost: the first version after the base, ours, holds
// no token. Before: "a field the server keeps" (the served version's
// schema) made it a Conflict, and Retry wrote "mine" twice.
func TestIssue81AStorageVersionWithoutTheTokenIsNoConflict(t *testing.T) {
	e := widgetServer(t, "the token-less storage version's", tokenlessStorage)
	for _, lost := range lostAnswers {
		for _, read := range crdReads {
			for _, retry := range []bool{false, true} {
				t.Run(fmt.Sprintf("%s/%s/%s", lost.name, crdReadName(read), retryName(retry)), func(t *testing.T) {
					key := newWidget(t, e.Client)
					ft := &faultyTransport{plan: []plannedFault{lost.fault}}
					if lost.overwrite {
						ft.foreign = foreignAppend(envClient(t, e), key, "theirs")
					}
					c := tokenClient(t, e, ft, read)
					p, err := patcher.Fetch(ctx, c, key, &v1.Widget{}, tokenOptions(c, "token-controller")...)
					if err != nil {
						t.Fatal(err)
					}
					runs, err := decideMine(p, retry)
					got := get(t, e.Client, key)
					if got.Status.WriteToken != "" {
						t.Fatalf("setup: the server stored the token %q", got.Status.WriteToken)
					}
					if n := countOf(got.Status.Items, "mine"); n != 1 {
						t.Fatalf("= %v after %d runs: mine stored %d times (items %v)", err, runs, n, got.Status.Items)
					}
					wantStoredNotConflict(t, err, runs)
				})
			}
		}
	}
}

// Issue 81, case 2: the CRD in the cluster is older than the controller
// (no status.writeToken). Two controllers take job-1 from one base; the
// other's removal is stored, ours reset before the server. Our earlier
// write, through the same client, was answered without its token. The
// token's own value made the removal "a write that adds a value", and
// "the only entry at the newest second" landed it. Before: nil, both took
// job-1. A Conflict or ErrWriteOutcomeUnknown (saying the token is
// pruned) are right.
func TestIssue81ACRDWithoutTheTokenLosesNoRemoval(t *testing.T) {
	e := widgetServer(t, "the token-less CRD's", tokenlessCRD)
	for _, rm := range removals {
		for _, read := range crdReads {
			for _, retry := range []bool{false, true} {
				t.Run(fmt.Sprintf("%s/%s/%s", rm.name, crdReadName(read), retryName(retry)), func(t *testing.T) {
					key := newWidget(t, e.Client)
					theirs := ""
					other := envClient(t, e)
					ft := &faultyTransport{plan: []plannedFault{{kind: faultNone}, {kind: faultForeignReset}}}
					ft.foreign = func() error { // the other controller (another process), from the same base
						var err error
						theirs, err = lockedTake(other, key, rm)
						return err
					}
					c := tokenClient(t, e, ft, read)
					fillQueue(t, c, key, rm, "queue-controller", patcher.WriteMergePatch, withToken)
					p, err := patcher.Fetch(ctx, c, key, &v1.Widget{}, tokenOptions(c, "queue-controller")...)
					if err != nil {
						t.Fatal(err)
					}
					taken, runs, err := takeOne(p, rm, retry)
					got := rm.keys(get(t, e.Client, key))
					if theirs != "job-1" {
						t.Fatalf("setup: the other controller took %q", theirs)
					}
					switch {
					case err == nil && taken == theirs:
						t.Fatalf("= nil after %d runs: both controllers told they took %s (server holds %v)", runs, taken, got)
					case err == nil && slices.Contains(got, taken):
						t.Fatalf("= nil after %d runs: took %s, which the server still holds (%v)", runs, taken, got)
					case err != nil && !apierrors.IsConflict(err) && !errors.Is(err, patcher.ErrWriteOutcomeUnknown):
						t.Fatalf("= %v; want nil with job-2 taken, a Conflict or ErrWriteOutcomeUnknown", err)
					}
					wantPrunedReport(t, err)
					t.Logf("= %v after %d runs, took %s; server holds %v", err, runs, taken, got)
				})
			}
		}
	}
}

// Issue 81, case 3: the same CRD; our removal is stored, its answer lost,
// after another controller wrote a second after our last write. A
// removal stamps nothing, but the token's own value made it a write that
// adds one, and "a stored write would have stamped it" called it a
// Conflict: Retry took a second job for one decision. nil or
// ErrWriteOutcomeUnknown are right, the decision made once.
func TestIssue81AStoredRemovalUnderATokenlessCRDIsNoConflict(t *testing.T) {
	e := widgetServer(t, "the token-less CRD's", tokenlessCRD)
	for _, rm := range removals {
		for _, read := range crdReads {
			for _, retry := range []bool{false, true} {
				t.Run(fmt.Sprintf("%s/%s/%s", rm.name, crdReadName(read), retryName(retry)), func(t *testing.T) {
					key := newWidget(t, e.Client)
					ft := &faultyTransport{plan: []plannedFault{{kind: faultNone}, {kind: faultReset, after: true}}}
					c := tokenClient(t, e, ft, read)
					fillQueue(t, c, key, rm, "queue-controller", patcher.WriteMergePatch, withToken)
					untilNextSecond()
					writeV1(t, envClient(t, e), key, "phase-controller", setPhase("Busy"))
					p, err := patcher.Fetch(ctx, c, key, &v1.Widget{}, tokenOptions(c, "queue-controller")...)
					if err != nil {
						t.Fatal(err)
					}
					taken, runs, err := takeOne(p, rm, retry)
					if got := rm.keys(get(t, e.Client, key)); !slices.Equal(got, []string{"job-2", "job-3"}) {
						t.Fatalf("= %v after %d runs (took %s): server holds %v; want [job-2 job-3]", err, runs, taken, got)
					}
					wantStoredNotConflict(t, err, runs)
					wantPrunedReport(t, err)
				})
			}
		}
	}
}

// A token the server prunes is said once: the first answer without it
// logs the CRD to apply, the next writes log nothing more, and it is no
// divergence of every write (WithDivergenceError: no ErrStatusDiverged).
// An ordinary Flush is still one PATCH (the report costs no request) and
// a no-op Flush none. Before: no report, and every write with the token
// was ErrStatusDiverged at status.writeToken.
func TestIssue81APrunedTokenIsLoggedOnce(t *testing.T) {
	e := widgetServer(t, "the token-less CRD's", tokenlessCRD)
	c, rec := countingClient(t, e)
	key := newWidget(t, e.Client)
	logs := &logLines{}
	lctx := logs.ctx(ctx)
	for i := range 3 {
		p, err := patcher.Fetch(lctx, c, key, &v1.Widget{}, withToken, patcher.WithMetrics(nil), patcher.WithDivergenceError())
		if err != nil {
			t.Fatal(err)
		}
		before := len(rec.requests())
		p.Object().Status.Phase = fmt.Sprintf("Ready-%d", i)
		if err := p.Flush(lctx); err != nil {
			t.Fatal(err)
		}
		if reqs := rec.requests()[before:]; len(reqs) != 1 || reqs[0].Method != http.MethodPatch {
			t.Fatalf("write %d: requests = %+v, want one PATCH", i, reqs)
		}
		before = len(rec.requests())
		if err := p.Flush(lctx); err != nil || len(rec.requests()) != before {
			t.Fatalf("no-op Flush: %v, %d requests", err, len(rec.requests())-before)
		}
	}
	if n := logs.matching("apply the current CRDs"); n != 1 {
		t.Fatalf("the pruned token was logged %d times, want once: %v", n, logs.lines)
	}
	if n := logs.matching("stored a different status"); n != 0 {
		t.Fatalf("the pruned token was also reported as a divergence: %v", logs.lines)
	}
	if n := logs.matching("widgets.testing.statuspatch.dev"); n != 1 {
		t.Fatalf("the log does not name the CRD: %v", logs.lines)
	}
}
