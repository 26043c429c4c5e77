package explore_test

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"

	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/cache"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/handler"
	"sigs.k8s.io/controller-runtime/pkg/source"

	testv1 "github.com/statuspatch/statuspatch/internal/testapi/v1"
	"github.com/statuspatch/statuspatch/testenv/explore"
)

// observer reads the Widget only through a second cache (built from the
// manager's config, its Widget informer started with it by a Kind source)
// and marks it observed by a blind merge patch of status through a client
// built from the same config.
type observer struct {
	widgets cache.Cache
	direct  client.Client
}

func (r *observer) SetupWithManager(mgr ctrl.Manager) error {
	widgets, err := cache.New(mgr.GetConfig(), cache.Options{
		HTTPClient: mgr.GetHTTPClient(), Scheme: mgr.GetScheme(), Mapper: mgr.GetRESTMapper(),
		DefaultNamespaces: map[string]cache.Config{"ns": {}},
	})
	if err != nil {
		return err
	}
	if err := mgr.Add(widgets); err != nil {
		return err
	}
	direct, err := client.New(mgr.GetConfig(), client.Options{Scheme: mgr.GetScheme(), Mapper: mgr.GetRESTMapper()})
	if err != nil {
		return err
	}
	r.widgets, r.direct = widgets, direct
	return ctrl.NewControllerManagedBy(mgr).Named("observer").
		WatchesRawSource(source.Kind(widgets, &testv1.Widget{}, &handler.TypedEnqueueRequestForObject[*testv1.Widget]{})).
		Complete(r)
}

func (r *observer) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	w := &testv1.Widget{}
	if err := r.widgets.Get(ctx, req.NamespacedName, w); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	if w.Status.ObservedGeneration == w.Generation {
		return ctrl.Result{}, nil
	}
	patch := client.RawPatch(types.MergePatchType, []byte(fmt.Sprintf(`{"status":{"observedGeneration":%d}}`, w.Generation)))
	return ctrl.Result{}, r.direct.Status().Patch(ctx, &testv1.Widget{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "w"}}, patch)
}

// A reconcile that reads the Widget only through a second cache and then
// writes it: its step lists what that cache held at the step's start (the
// version the write is judged by), not a write "without reading it" after
// no read at all, in its text and in the JSON report.
func TestSecondCacheReadsInTheSteps(t *testing.T) {
	s := explore.Scenario{
		Setup: func(mgr ctrl.Manager) error {
			r := &observer{}
			return r.SetupWithManager(mgr)
		},
		Objects: []client.Object{&testv1.Widget{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "w"}}},
		Actions: []explore.Action{resize},
	}
	_, runs, err := explore.RunSteps(t.Context(), s, serverOptions(t))
	if err != nil {
		t.Fatal(err)
	}
	checked := 0
	for _, steps := range runs {
		for _, st := range steps {
			if st.Reconciler != "observer" || len(st.Writes) == 0 {
				continue
			}
			checked++
			w := st.Writes[0]
			text := st.String()
			held := fmt.Sprintf("held  Widget ns/w v%d (second cache, at the step's start; its reads are not listed one by one)", w.Based)
			if w.Based == 0 || !strings.Contains(text, held) || strings.Contains(text, "without reading it") {
				t.Fatalf("a write after a read through the second cache: want the step to show %q and the write based on it, got:\n%s", held, text)
			}
			b, err := json.Marshal(st)
			if err != nil {
				t.Fatal(err)
			}
			if want := fmt.Sprintf(`"SecondCache":[{"Object":"Widget ns/w","Version":%d`, w.Based); !strings.Contains(string(b), want) {
				t.Fatalf("the JSON report of the step: want %s, got %s", want, b)
			}
		}
	}
	if checked == 0 {
		t.Fatal("no step of the observer wrote")
	}
}
