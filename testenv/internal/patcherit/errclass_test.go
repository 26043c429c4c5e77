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
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/client-go/rest"
	"sigs.k8s.io/controller-runtime/pkg/client"

	v1 "github.com/statuspatch/statuspatch/internal/testapi/v1"
	"github.com/statuspatch/statuspatch/patcher"
	"github.com/statuspatch/statuspatch/testenv"
	"github.com/statuspatch/statuspatch/testenv/internal/testapi"
)

// Issue 37, "error classes that say what to do": two definite refusals
// that the usual reading of their status code got wrong.

// refusedModes are the modes a refused status write is tested in.
var refusedModes = []patcher.WriteMode{patcher.WriteMergePatch, patcher.WriteApply}

// noStatusEnv starts a server whose Widget CRD lacks the status
// subresource (a type without +kubebuilder:subresource:status).
func noStatusEnv(t *testing.T) *testenv.Env {
	t.Helper()
	var crds []*apiextensionsv1.CustomResourceDefinition
	for _, crd := range testapi.CRDs() {
		if crd.Spec.Names.Kind == "Widget" {
			for i := range crd.Spec.Versions {
				crd.Spec.Versions[i].Subresources = nil
			}
		}
		crds = append(crds, crd)
	}
	s := runtime.NewScheme()
	if err := v1.AddToScheme(s); err != nil {
		t.Fatal(err)
	}
	e, stop, err := testenv.StartServer(ctx, testenv.WithCRDs(crds...), testenv.WithScheme(s), testenv.WithoutStatusSchemaCheck())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(stop)
	return e
}

// Case 5: on a CRD without the status subresource, PATCH .../status
// answers 404 while the object exists. Flush and Retry, merge and apply
// mode, must return ErrNoStatusSubresource naming the CRD and the marker,
// never an error apierrors.IsNotFound matches (client.IgnoreNotFound
// would drop every status write in silence). The object was read after
// the 404 with its UID: the error rests on that read, and a deleted
// object (on the ordinary server) stays IsNotFound.
//
// Before: IsNotFound for every write.
func TestErrClassNoStatusSubresource(t *testing.T) {
	e := noStatusEnv(t)
	for _, mode := range refusedModes {
		for _, retry := range []bool{false, true} {
			t.Run(fmt.Sprintf("%v/retry=%v", mode, retry), func(t *testing.T) {
				key := newWidget(t, e.Client)
				p, err := patcher.Fetch(ctx, e.Client, key, &v1.Widget{}, patcher.WithMetrics(nil), patcher.WithFieldOwner("ctl"), patcher.WithWriteMode(mode))
				if err != nil {
					t.Fatal(err)
				}
				_, err = decideMine(p, retry)
				if !errors.Is(err, patcher.ErrNoStatusSubresource) || apierrors.IsNotFound(err) || client.IgnoreNotFound(err) == nil {
					t.Fatalf("= %v; want ErrNoStatusSubresource, not IsNotFound", err)
				}
				var nse *patcher.NoStatusSubresourceError
				if !errors.As(err, &nse) || nse.CRD != "widgets.testing.statuspatch.dev" || !strings.Contains(err.Error(), "+kubebuilder:subresource:status") {
					t.Fatalf("= %v; want a *NoStatusSubresourceError naming widgets.testing.statuspatch.dev and the marker", err)
				}
			})
		}
	}
	t.Run("deleted object", func(t *testing.T) {
		se := env(t)
		key := newWidget(t, se.Client)
		p, err := patcher.Fetch(ctx, se.Client, key, &v1.Widget{}, patcher.WithMetrics(nil))
		if err != nil {
			t.Fatal(err)
		}
		if err := se.Client.Delete(ctx, p.Object().DeepCopy()); err != nil {
			t.Fatal(err)
		}
		_ = appendItem("mine")(p.Object())
		if err := p.Flush(ctx); !apierrors.IsNotFound(err) || errors.Is(err, patcher.ErrNoStatusSubresource) {
			t.Fatalf("Flush on a deleted object = %v; want IsNotFound", err)
		}
	})
}

// Case 6: a status under the API server's request limit (3 MB) and over
// etcd's (1.5 MiB): the server answers 500 "etcdserver: request is too
// large", a refusal before anything is stored. Flush and Retry, merge and
// apply mode, must return ErrStatusTooLarge naming the size, after one
// send on the wire, never ErrWriteOutcomeUnknown.
//
// Before: the 500 was taken for a lost answer: the 1.6 MB body was sent
// four times, then ErrWriteOutcomeUnknown.
func TestErrClassStatusTooLarge(t *testing.T) {
	e := env(t)
	big := strings.Repeat("x", 1600*1024)
	for _, mode := range refusedModes {
		for _, retry := range []bool{false, true} {
			t.Run(fmt.Sprintf("%v/retry=%v", mode, retry), func(t *testing.T) {
				key := newWidget(t, e.Client)
				log := &reqLog{}
				cfg := rest.CopyConfig(e.Config)
				cfg.Wrap(log.wrap)
				c, err := client.New(cfg, client.Options{Scheme: e.Scheme, Mapper: e.Mapper})
				if err != nil {
					t.Fatal(err)
				}
				p, err := patcher.Fetch(ctx, c, key, &v1.Widget{}, patcher.WithMetrics(nil), patcher.WithFieldOwner("ctl"), patcher.WithWriteMode(mode), fastRetry)
				if err != nil {
					t.Fatal(err)
				}
				n := log.len()
				runs := 0
				mutate := func(w *v1.Widget) error { runs++; return appendItem(big)(w) }
				if retry {
					err = p.Retry(ctx, mutate)
				} else {
					_ = mutate(p.Object())
					err = p.Flush(ctx)
				}
				var tle *patcher.StatusTooLargeError
				if !errors.As(err, &tle) || errors.Is(err, patcher.ErrWriteOutcomeUnknown) || tle.StatusBytes < len(big) || !strings.Contains(err.Error(), fmt.Sprint(tle.StatusBytes)) {
					t.Fatalf("= %v; want ErrStatusTooLarge naming a status of at least %d bytes, not ErrWriteOutcomeUnknown", err, len(big))
				}
				if reqs := log.since(n); !slices.Equal(reqs, []string{"PATCH status"}) || runs != 1 {
					t.Fatalf("requests %v after %d runs; want one PATCH, one run", reqs, runs)
				}
				if got := get(t, e.Client, key).Status.Items; len(got) != 0 {
					t.Fatalf("the server holds %d items; want none", len(got))
				}
			})
		}
	}
}

// A status too large for etcd whose first send is lost before the server
// (a reset): settling finds the object at the base and sends the same
// body again, which etcd refuses for its size. The resend carries the
// lock, so an earlier stored send would have made it a 409 before the
// size was checked: the refusal is definite, ErrStatusTooLarge, never
// sent a third time and never ErrWriteOutcomeUnknown.
//
// Before: the resend's 500 was taken for a lost answer, the body sent up
// to the settling bound, then ErrWriteOutcomeUnknown.
func TestErrClassStatusTooLargeOnTheResend(t *testing.T) {
	e := env(t)
	big := strings.Repeat("x", 1600*1024)
	for _, mode := range refusedModes {
		t.Run(fmt.Sprint(mode), func(t *testing.T) {
			key := newWidget(t, e.Client)
			ft := &faultyTransport{plan: []plannedFault{{kind: faultReset}}}
			patches := 0
			c := wrappedClient(t, e, func(rt http.RoundTripper) http.RoundTripper {
				inner := ft.wrap(rt)
				return roundTripFunc(func(req *http.Request) (*http.Response, error) {
					if req.Method == http.MethodPatch {
						patches++
					}
					return inner.RoundTrip(req)
				})
			})
			p, err := patcher.Fetch(ctx, c, key, &v1.Widget{}, patcher.WithMetrics(nil), patcher.WithFieldOwner("ctl"), patcher.WithWriteMode(mode), fastRetry)
			if err != nil {
				t.Fatal(err)
			}
			if err := appendItem(big)(p.Object()); err != nil {
				t.Fatal(err)
			}
			err = p.Flush(ctx)
			var tle *patcher.StatusTooLargeError
			if !errors.As(err, &tle) || errors.Is(err, patcher.ErrWriteOutcomeUnknown) || tle.StatusBytes < len(big) {
				t.Fatalf("Flush = %v; want ErrStatusTooLarge, not ErrWriteOutcomeUnknown", err)
			}
			if patches != 2 {
				t.Fatalf("%d PATCH requests; want 2 (the lost one and one resend)", patches)
			}
			if got := get(t, e.Client, key).Status.Items; len(got) != 0 {
				t.Fatalf("the server holds %d items; want none", len(got))
			}
		})
	}
}
