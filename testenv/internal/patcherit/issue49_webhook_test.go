package patcherit_test

import (
	"encoding/json"
	"encoding/pem"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"testing"
	"time"

	admissionv1 "k8s.io/api/admission/v1"
	admissionregistrationv1 "k8s.io/api/admissionregistration/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/utils/ptr"
	"sigs.k8s.io/controller-runtime/pkg/client"

	v1 "github.com/statuspatch/statuspatch/internal/testapi/v1"
	"github.com/statuspatch/statuspatch/patcher"
	"github.com/statuspatch/statuspatch/testenv"
	"github.com/statuspatch/statuspatch/testenv/internal/testapi"
)

// Issue 49, case 5: a mutating webhook on the status subresource that
// adds a field the write does not set (observedGeneration 7). Stored,
// answer lost: the first version after the base is not the base plus this
// write, and nothing shows another writer (the webhook's change is
// recorded under this writer's manager). Before: a Conflict, and Retry
// wrote "mine" twice. Now: not a Conflict (Unknown: the server's own
// change looks like another writer's sharing the manager), the decision
// made once. Needs the full API (kube-apiserver runs admission webhooks).
func TestIssue49AStatusWebhookIsNotAConflict(t *testing.T) {
	if _, _, err := testenv.KubeAPIServerPath(); err != nil {
		if os.Getenv("STATUSPATCH_REQUIRE_FULLAPI") == "1" {
			t.Fatalf("STATUSPATCH_REQUIRE_FULLAPI=1 and no kube-apiserver: %v", err)
		}
		t.Skipf("skipping (needs the full API): %v", err)
	}
	s := runtime.NewScheme()
	for _, add := range []func(*runtime.Scheme) error{v1.AddToScheme, admissionregistrationv1.AddToScheme} {
		if err := add(s); err != nil {
			t.Fatal(err)
		}
	}
	e := testenv.Start(t, testenv.WithFullAPI(), testenv.WithCRDs(testapi.CRDs()...), testenv.WithScheme(s))
	installStatusWebhook(t, e)
	for _, lost := range lostAnswers {
		for _, retry := range []bool{false, true} {
			t.Run(fmt.Sprintf("%s/%s", lost.name, map[bool]string{true: "Retry", false: "Flush"}[retry]), func(t *testing.T) {
				key := newWidget(t, e.Client)
				ft := &faultyTransport{plan: []plannedFault{lost.fault}}
				if lost.overwrite {
					other, err := client.New(e.Config, client.Options{Scheme: e.Scheme, Mapper: e.Mapper})
					if err != nil {
						t.Fatal(err)
					}
					ft.foreign = foreignAppend(other, key, "theirs")
				}
				c := faultyClient(t, e, ft)
				p, err := patcher.Fetch(ctx, c, key, &v1.Widget{}, append(historyOptions(c), patcher.WithFieldOwner("webhook-controller"))...)
				if err != nil {
					t.Fatal(err)
				}
				runs, err := decideMine(p, retry)
				got := get(t, e.Client, key).Status
				if got.ObservedGeneration != 7 {
					t.Fatalf("setup: observedGeneration %d, want the webhook's 7", got.ObservedGeneration)
				}
				if n := countOf(got.Items, "mine"); n != 1 {
					t.Fatalf("= %v after %d runs: mine stored %d times (items %v)", err, runs, n, got.Items)
				}
				wantStoredNotConflict(t, err, runs)
			})
		}
	}
}

// installStatusWebhook serves a mutating webhook that adds
// status.observedGeneration 7 to every update of a Widget's status, and
// waits until the server calls it.
func installStatusWebhook(t *testing.T, e *testenv.Env) {
	t.Helper()
	srv := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var review admissionv1.AdmissionReview
		if err := json.NewDecoder(r.Body).Decode(&review); err != nil || review.Request == nil {
			http.Error(w, "bad review", http.StatusBadRequest)
			return
		}
		patch := []byte(`[{"op":"add","path":"/status/observedGeneration","value":7}]`)
		review.Response = &admissionv1.AdmissionResponse{UID: review.Request.UID, Allowed: true,
			Patch: patch, PatchType: ptr.To(admissionv1.PatchTypeJSONPatch)}
		review.Request = nil
		_ = json.NewEncoder(w).Encode(&review)
	}))
	t.Cleanup(srv.Close)
	ca := pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: srv.Certificate().Raw})
	cfg := &admissionregistrationv1.MutatingWebhookConfiguration{
		ObjectMeta: metav1.ObjectMeta{Name: "widget-status-" + objectName(t)},
		Webhooks: []admissionregistrationv1.MutatingWebhook{{
			Name:                    "status.widgets.testing.statuspatch.dev",
			ClientConfig:            admissionregistrationv1.WebhookClientConfig{URL: ptr.To(srv.URL), CABundle: ca},
			Rules:                   []admissionregistrationv1.RuleWithOperations{{Operations: []admissionregistrationv1.OperationType{admissionregistrationv1.Update}, Rule: admissionregistrationv1.Rule{APIGroups: []string{v1.GroupVersion.Group}, APIVersions: []string{"v1"}, Resources: []string{"widgets/status"}}}},
			SideEffects:             ptr.To(admissionregistrationv1.SideEffectClassNone),
			AdmissionReviewVersions: []string{"v1"},
			FailurePolicy:           ptr.To(admissionregistrationv1.Fail),
		}},
	}
	if err := e.Client.Create(ctx, cfg); err != nil {
		t.Fatal(err)
	}
	// The server picks the configuration up from its informer: write a
	// probe's status until the webhook's field shows.
	key := newWidget(t, e.Client)
	deadline := time.Now().Add(30 * time.Second)
	for {
		w := get(t, e.Client, key)
		w.Status.Phase = fmt.Sprintf("probe-%d", time.Now().UnixNano())
		if err := e.Client.Status().Update(ctx, w); err == nil && w.Status.ObservedGeneration == 7 {
			return
		}
		if time.Now().After(deadline) {
			t.Fatal("setup: the status webhook was not called within 30s")
		}
		time.Sleep(100 * time.Millisecond) // polling the server's informer, not ordering a race
	}
}
