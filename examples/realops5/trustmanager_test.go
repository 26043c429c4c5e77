package realops5

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"fmt"
	"math/big"
	"slices"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/client-go/tools/events"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/manager"
	"sigs.k8s.io/controller-runtime/pkg/recorder"

	trustapi "github.com/cert-manager/trust-manager/pkg/apis/trust/v1alpha1"
	"github.com/cert-manager/trust-manager/pkg/bundle"
	"github.com/cert-manager/trust-manager/pkg/bundle/controller"

	"github.com/statuspatch/statuspatch/testenv"
	"github.com/statuspatch/statuspatch/testenv/explore"
)

// trustNamespace is the trust namespace of the scenario, main.go's
// --trust-namespace: where the Bundle's sources are read.
const trustNamespace = "trust"

// TestExploreTrustManager explores trust-manager's Bundle controller with
// the defaults (docs/explore-your-operator.md, "With the defaults").
func TestExploreTrustManager(t *testing.T) {
	env := startTrust(t)
	res, err := explore.Run(t.Context(), trustScenario(t), explore.Options{Backend: explore.Server(env), Budget: 4 * time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	logReports(t, res)
	if res.Violation != nil { // none, judged by reading trust-manager (examples/realops/README.md)
		t.Fatalf("want no violation, got %d", len(res.Violations))
	}
}

// startTrust is start with the scenario's namespaces: the trust namespace
// and two teams' (the explorer creates no namespace, and keeps these
// across schedules).
func startTrust(t *testing.T) *testenv.Env {
	env := start(t)
	for _, ns := range []*corev1.Namespace{
		{ObjectMeta: metav1.ObjectMeta{Name: trustNamespace}},
		{ObjectMeta: metav1.ObjectMeta{Name: "team-a", Labels: map[string]string{"team": "a"}}},
		{ObjectMeta: metav1.ObjectMeta{Name: "team-b", Labels: map[string]string{"team": "b"}}},
	} {
		if err := env.Client.Create(t.Context(), ns); err != nil {
			t.Fatal(err)
		}
	}
	return env
}

func logReports(t *testing.T, res *explore.Result) {
	t.Helper()
	t.Logf("%d schedules in %s, bounds %+v, %d violation(s)", res.Schedules, res.Elapsed.Round(time.Second), res.Bounds, len(res.Violations))
	for i, v := range res.Violations {
		t.Logf("report %d (rank %d, %s), found after %d schedules in %s:\n%s", i+1, v.Rank, v.RankReason, v.Schedules, v.FoundAfter.Round(time.Second), v)
	}
}

// trustOptions are main.go's Bundle options at its flags' defaults, with
// the trust namespace of the scenario.
var trustOptions = controller.Options{Namespace: trustNamespace}

// trustScenario is a Bundle of the CA certificate of a source ConfigMap,
// copied into a ConfigMap of each namespace labelled team=a, set up as
// main.go does, and two user actions, each at any point: a rotation (a
// second CA added to the source) and a retarget (the namespaces labelled
// team=b instead). Its invariant is what trust-manager promises: in a
// steady state every selected namespace has the Bundle's target, holding
// the source's certificates, and no other namespace has one.
func trustScenario(t *testing.T) explore.Scenario {
	ca1, ca2 := selfSignedCA(t, "ca-1"), selfSignedCA(t, "ca-2")
	cacheOpts := bundle.CacheOpts(trustOptions)
	return explore.Scenario{
		Setup: func(mgr manager.Manager) error { // as main.go, without the webhooks and health checks
			return bundle.SetupWithManager(context.Background(), eventsManager{mgr}, trustOptions)
		},
		Manager: &manager.Options{Cache: cacheOpts}, // main.go's ctrl.Options: Cache: bundle.CacheOpts(opts.Bundle)
		Objects: []client.Object{
			&corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Namespace: trustNamespace, Name: "source"},
				Data: map[string]string{"ca.crt": ca1}},
			&trustapi.Bundle{ObjectMeta: metav1.ObjectMeta{Name: "corp-cas"},
				Spec: trustapi.BundleSpec{
					Sources: []trustapi.BundleSource{{ConfigMap: &trustapi.SourceObjectKeySelector{Name: "source", Key: "ca.crt"}}},
					Target: trustapi.BundleTarget{ConfigMap: &trustapi.TargetTemplate{Key: "ca-bundle.crt"},
						NamespaceSelector: &metav1.LabelSelector{MatchLabels: map[string]string{"team": "a"}}},
				}},
		},
		Actions: []explore.Action{{Name: "rotate", Run: func(ctx context.Context, c client.Client) error {
			return c.Patch(ctx, &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Namespace: trustNamespace, Name: "source"},
				Data: map[string]string{"ca.crt": ca1 + ca2}}, client.Merge)
		}}, {Name: "retarget", Run: func(ctx context.Context, c client.Client) error {
			b := &trustapi.Bundle{}
			if err := c.Get(ctx, client.ObjectKey{Name: "corp-cas"}, b); err != nil {
				return err
			}
			b.Spec.Target.NamespaceSelector = &metav1.LabelSelector{MatchLabels: map[string]string{"team": "b"}}
			return c.Update(ctx, b)
		}}},
		Invariant: trustInvariant,
	}
}

// eventsManager is the explorer's manager with the events.k8s.io recorder
// controller-runtime v0.23 added (GetEventRecorder), which trust-manager's
// Bundle controller takes: the explorer's manager, built at v0.22, has
// only GetEventRecorderFor. Its events are dropped.
type eventsManager struct{ manager.Manager }

func (eventsManager) GetEventRecorder(string) recorder.EventRecorder { return &events.FakeRecorder{} }

// trustInvariant: every namespace the Bundle selects has its target
// ConfigMap, whose key holds exactly the source's certificates; no other
// namespace has a ConfigMap labelled as the Bundle's target; and one
// namespace is selected (the scenario's are there).
func trustInvariant(ctx context.Context, r client.Reader) error {
	b, src := &trustapi.Bundle{}, &corev1.ConfigMap{}
	if err := r.Get(ctx, client.ObjectKey{Name: "corp-cas"}, b); err != nil {
		return client.IgnoreNotFound(err)
	}
	if err := r.Get(ctx, client.ObjectKey{Namespace: trustNamespace, Name: "source"}, src); err != nil {
		return err
	}
	want, err := pemSet(src.Data["ca.crt"])
	if err != nil {
		return fmt.Errorf("source ConfigMap: %w", err)
	}
	sel, err := metav1.LabelSelectorAsSelector(b.Spec.Target.NamespaceSelector)
	if err != nil {
		return err
	}
	nss := &corev1.NamespaceList{}
	if err := r.List(ctx, nss); err != nil {
		return err
	}
	selected := 0
	for _, ns := range nss.Items {
		cm := &corev1.ConfigMap{}
		err := r.Get(ctx, client.ObjectKey{Namespace: ns.Name, Name: b.Name}, cm)
		if err := client.IgnoreNotFound(err); err != nil {
			return err
		}
		found := err == nil
		if !sel.Matches(labels.Set(ns.Labels)) {
			if found && cm.Labels[trustapi.BundleLabelKey] == b.Name {
				return fmt.Errorf("namespace %s is not selected by Bundle %s and has its target ConfigMap", ns.Name, b.Name)
			}
			continue
		}
		selected++
		if !found {
			return fmt.Errorf("namespace %s is selected by Bundle %s and has no target ConfigMap", ns.Name, b.Name)
		}
		got, err := pemSet(cm.Data[b.Spec.Target.ConfigMap.Key])
		if err != nil {
			return fmt.Errorf("target ConfigMap %s/%s: %w", ns.Name, cm.Name, err)
		}
		if !slices.Equal(got, want) {
			return fmt.Errorf("target ConfigMap %s/%s holds %d certificates, not the source's %d", ns.Name, cm.Name, len(got), len(want))
		}
	}
	if selected == 0 { // the test's Namespaces, made before Run, are there in every schedule
		return fmt.Errorf("no namespace is selected by Bundle %s (%s)", b.Name, sel)
	}
	return nil
}

// pemSet is the sorted DER of the certificates of a PEM bundle.
func pemSet(s string) ([]string, error) {
	var ders []string
	rest := []byte(s)
	for {
		var block *pem.Block
		block, rest = pem.Decode(rest)
		if block == nil {
			break
		}
		if block.Type != "CERTIFICATE" {
			return nil, fmt.Errorf("a PEM block of type %q", block.Type)
		}
		ders = append(ders, string(block.Bytes))
	}
	slices.Sort(ders)
	return slices.Compact(ders), nil
}

// selfSignedCA is a PEM CA certificate named cn, valid for a year.
func selfSignedCA(t *testing.T, cn string) string {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: cn},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(365 * 24 * time.Hour),
		IsCA: true, BasicConstraintsValid: true, KeyUsage: x509.KeyUsageCertSign}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	return string(pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}))
}
