package realops

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	grafanav1beta1 "github.com/grafana/grafana-operator/v5/api/v1beta1"
	grafanacontrollers "github.com/grafana/grafana-operator/v5/controllers"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/manager"

	"github.com/statuspatch/statuspatch/testenv"
	"github.com/statuspatch/statuspatch/testenv/explore"
)

// startGrafana runs the full API with grafana-operator's CRDs and a fake
// Grafana on loopback that its in-cluster admin URL reaches (fakeGrafana).
func startGrafana(t *testing.T) *testenv.Env {
	env := start(t, "github.com/grafana/grafana-operator/v5", grafanav1beta1.AddToScheme)
	fakeGrafana(t)
	return env
}

// fakeGrafana stands for the Grafana Pod, which nothing runs here: the
// operator's last stage asks the instance for its version at
// http://<name>-service.<namespace>.svc:3000 with an HTTP client cloned
// from http.DefaultTransport, so the default transport's dialer sends
// addresses ending in .svc:3000 to a loopback server that answers as
// Grafana does.
func fakeGrafana(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/api/frontend/settings" {
			http.NotFound(w, r)
			return
		}
		fmt.Fprint(w, `{"buildInfo":{"version":"12.1.0"}}`)
	}))
	t.Cleanup(srv.Close)
	tr := http.DefaultTransport.(*http.Transport)
	dial := tr.DialContext
	tr.DialContext = func(ctx context.Context, network, addr string) (net.Conn, error) {
		if strings.HasSuffix(addr, ".svc:3000") {
			addr = srv.Listener.Addr().String()
		}
		return dial(ctx, network, addr)
	}
	t.Cleanup(func() { tr.DialContext = dial })
}

// grafanaSetup is main.go's first controller, the one that runs Grafana
// instances (the others sync dashboards, folders, datasources and alerting
// into a running Grafana through its HTTP API). main.go passes its signal
// context; this one is cancelled, so SetupWithManager's goroutine (one
// status sync after a delay, outside any reconcile) returns at once.
func grafanaSetup(mgr manager.Manager) error {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	return (&grafanacontrollers.GrafanaReconciler{Client: mgr.GetClient(), Scheme: mgr.GetScheme(),
		IsOpenShift: false, ClusterDomain: ""}).SetupWithManager(ctx, mgr)
}

const grafanaNS = "grafana"

// grafanaScenario is a Grafana at version (none: the operator writes its
// default into the spec), set up as main.go does (its manager options
// included), and two user actions,
// each at any point: a version pin (to 11.6.0) and a delete.
func grafanaScenario(version string) explore.Scenario {
	return explore.Scenario{
		Setup: grafanaSetup,
		// main.go's default ENFORCE_CACHE_LABELS=safe reads ConfigMaps and
		// Secrets uncached (its label selectors on the other kinds match
		// every object the operator creates).
		Manager: &manager.Options{Client: client.Options{Cache: &client.CacheOptions{
			DisableFor: []client.Object{&corev1.ConfigMap{}, &corev1.Secret{}}}}},
		Objects: []client.Object{&grafanav1beta1.Grafana{ObjectMeta: metav1.ObjectMeta{Namespace: grafanaNS, Name: "hello"},
			Spec: grafanav1beta1.GrafanaSpec{Version: version}}},
		Actions: []explore.Action{{Name: "pin-version", Run: func(ctx context.Context, c client.Client) error {
			g := &grafanav1beta1.Grafana{}
			if err := c.Get(ctx, client.ObjectKey{Namespace: grafanaNS, Name: "hello"}, g); err != nil {
				return err
			}
			g.Spec.Version = "11.6.0"
			return c.Update(ctx, g)
		}}, {Name: "delete", Run: func(ctx context.Context, c client.Client) error {
			return c.Delete(ctx, &grafanav1beta1.Grafana{ObjectMeta: metav1.ObjectMeta{Namespace: grafanaNS, Name: "hello"}})
		}}},
		Invariant: grafanaInvariant,
	}
}

// grafanaInvariant is what the operator promises of a Grafana: its
// Deployment runs the image of spec.version, and the Ready condition is
// true for the current generation.
func grafanaInvariant(ctx context.Context, r client.Reader) error {
	g := &grafanav1beta1.Grafana{}
	if err := r.Get(ctx, client.ObjectKey{Namespace: grafanaNS, Name: "hello"}, g); err != nil {
		return client.IgnoreNotFound(err)
	}
	d := &appsv1.Deployment{}
	if err := r.Get(ctx, client.ObjectKey{Namespace: grafanaNS, Name: "hello-deployment"}, d); err != nil {
		return err
	}
	want := "docker.io/grafana/grafana:" + g.Spec.Version
	for _, c := range d.Spec.Template.Spec.Containers {
		if c.Name == "grafana" && c.Image != want {
			return fmt.Errorf("Grafana %s/hello at version %q: its Deployment runs %s", grafanaNS, g.Spec.Version, c.Image)
		}
	}
	if c := meta.FindStatusCondition(g.Status.Conditions, "GrafanaReady"); c == nil || c.Status != metav1.ConditionTrue || c.ObservedGeneration != g.Generation {
		return fmt.Errorf("Grafana %s/hello (generation %d): Ready condition %+v", grafanaNS, g.Generation, c)
	}
	return nil
}

func TestExploreGrafana(t *testing.T) {
	env := startGrafana(t)
	var tally actionTally
	res, err := explore.Run(t.Context(), tally.wrap(grafanaScenario("")),
		explore.Options{Backend: explore.Server(env), Crashes: 1, LeaderChange: true, Budget: 5 * time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%d schedules (%d pruned) in %s, exhausted %v, at %s; actions: %s", res.Schedules, res.Pruned, res.Elapsed.Round(time.Second), res.Exhausted, res.Bounds, &tally)
	v := res.Violation // the operator's bug: its default version written over the user's
	if v == nil || !v.Broke(explore.InvariantLostWrite) || !strings.Contains(v.String(), `{"spec":{"version":"12.1.0"}}`) {
		t.Fatalf("want the user's spec.version overwritten by the operator's default, got after %d schedules:\n%v", res.Schedules, v)
	}
	t.Logf("found after %d schedules in %s:\n%s", v.Schedules, v.FoundAfter.Round(time.Second), v)
}

// TestExploreGrafanaVersioned explores the same operator past that bug: the
// Grafana is created with spec.version, so setDefaultGrafanaVersion never
// writes, and the user's action is an upgrade.
func TestExploreGrafanaVersioned(t *testing.T) {
	env := startGrafana(t)
	var tally actionTally
	res, err := explore.Run(t.Context(), tally.wrap(grafanaScenario("12.1.0")),
		explore.Options{Backend: explore.Server(env), Crashes: 1, LeaderChange: true, Budget: 5 * time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%d schedules (%d pruned) in %s, exhausted %v, at %s; actions: %s", res.Schedules, res.Pruned, res.Elapsed.Round(time.Second), res.Exhausted, res.Bounds, &tally)
	logRanked(t, res)
	if v := res.Violation; v != nil {
		t.Errorf("found after %d schedules in %s at %s:\n%s", v.Schedules, v.FoundAfter.Round(time.Second), v.Bounds, v)
	}
}

// TestGrafanaDeepening searches the versioned scenario with the default
// options and a budget: the default bounds, deepened while each level is
// exhausted, no crash.
func TestGrafanaDeepening(t *testing.T) {
	env := startGrafana(t)
	var tally actionTally
	res, err := explore.Run(t.Context(), tally.wrap(grafanaScenario("12.1.0")),
		explore.Options{Backend: explore.Server(env), Budget: 5 * time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%d schedules (%d pruned) in %s, exhausted %v, at %s; actions: %s", res.Schedules, res.Pruned, res.Elapsed.Round(time.Second), res.Exhausted, res.Bounds, &tally)
	logRanked(t, res)
	if v := res.Violation; v != nil {
		t.Errorf("found after %d schedules in %s at %s:\n%s", v.Schedules, v.FoundAfter.Round(time.Second), v.Bounds, v)
	}
}
