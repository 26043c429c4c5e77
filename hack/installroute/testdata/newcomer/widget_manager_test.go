package controller

// Written into the scaffold by the newcomer route (hack/installroute,
// managercounts.go), before the migration and after init and -fix, and
// removed after it ran: the reconciler under a real manager, as cmd/main.go
// runs it. One manager (the manager's cached client, the reconciler's
// SetupWithManager as the scaffold has it), widgetsAtOnce Widgets created at
// once on testenv's API server; when each one's status is decided, the
// manager is stopped and the test prints one line the route reads:
// reconciles, reconcile errors logged (but one the stop cancelled),
// conflicts logged (a line with "Operation cannot be fulfilled": the
// server's 409, "the object has been modified", and a write the patcher
// refused as one, "would conflict, so it was not sent") and decisions
// processed twice
// (readyDecisions beyond one per Widget). With the fleet (issue 80's six
// shapes and the tutorial's, fleet_manager_test.go), its kinds' objects are created at the
// same moment, and a line per shape is printed too.

import (
	"bytes"
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus/testutil"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	clientgoscheme "k8s.io/client-go/kubernetes/scheme"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/log/zap"
	"sigs.k8s.io/controller-runtime/pkg/manager"
	"sigs.k8s.io/controller-runtime/pkg/metrics"

	"github.com/statuspatch/statuspatch/testenv"

	widgetsv1 "example.com/widgets/api/v1"
)

const widgetsAtOnce = 10

// lockedBuffer is the manager's log.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

func TestWidgetManagerCounts(t *testing.T) {
	scheme := runtime.NewScheme()
	if err := clientgoscheme.AddToScheme(scheme); err != nil {
		t.Fatal(err)
	}
	if err := widgetsv1.AddToScheme(scheme); err != nil {
		t.Fatal(err)
	}
	env := testenv.Start(t, testenv.WithCRDDirectory("../../config/crd"), testenv.WithScheme(scheme))
	logs := &lockedBuffer{}
	logger := zap.New(zap.WriteTo(logs), zap.UseDevMode(true))
	ctrl.SetLogger(logger)
	// ctrl.NewManager, with the RESTMapper of testenv's server (it has no
	// discovery root).
	mgr, err := env.NewManager(manager.Options{Scheme: scheme, Logger: logger})
	if err != nil {
		t.Fatal(err)
	}
	if err := (&WidgetReconciler{}).SetupWithManager(mgr); err != nil {
		t.Fatal(err)
	}
	for _, s := range fleet {
		if err := s.setup(mgr); err != nil {
			t.Fatal(err)
		}
	}
	ctx, cancel := context.WithCancel(t.Context())
	stopped := make(chan error, 1)
	go func() { stopped <- mgr.Start(ctx) }()

	// widgetsAtOnce Widgets, and the fleet's objects, created at once
	// (released together).
	start := make(chan struct{})
	objs := fleetObjects()
	errs := make(chan error, widgetsAtOnce+len(objs))
	for i := range widgetsAtOnce {
		go func() {
			<-start
			w := &widgetsv1.Widget{ObjectMeta: metav1.ObjectMeta{Namespace: "default", Name: fmt.Sprintf("w%02d", i)}, Spec: widgetsv1.WidgetSpec{Size: 2}}
			errs <- env.Client.Create(ctx, w)
		}()
	}
	for _, o := range objs {
		go func() {
			<-start
			errs <- env.Client.Create(ctx, o)
		}()
	}
	close(start)
	for range widgetsAtOnce + len(objs) {
		if err := <-errs; err != nil {
			t.Fatal(err)
		}
	}
	// Until each status is decided, read from the server (env.Client is
	// uncached); a bound on the wait, not a measurement.
	var undecided []string
	for deadline := time.Now().Add(3 * time.Minute); ; time.Sleep(50 * time.Millisecond) {
		var list widgetsv1.WidgetList
		if err := env.Client.List(ctx, &list, client.InNamespace("default")); err != nil {
			t.Fatal(err)
		}
		undecided = undecided[:0]
		for _, w := range list.Items {
			if !decided(&w) {
				undecided = append(undecided, fmt.Sprintf("%s %+v", w.Name, w.Status))
			}
		}
		undecided = append(undecided, fleetUndecided(ctx, t, env.Client)...)
		if len(list.Items) == widgetsAtOnce && len(undecided) == 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("not decided after 3 minutes: %s\nthe manager's log:\n%s", strings.Join(undecided, "; "), logs)
		}
	}
	fleetDeleted(ctx, t, env.Client, logs)
	cancel()
	if err := <-stopped; err != nil {
		t.Fatal(err)
	}
	reconciles := reconcileCount(t, "widget")
	failed, conflicts := logCounts(logs.String(), "Widget")
	twice := int(testutil.ToFloat64(readyDecisions)) - widgetsAtOnce
	if conflicts > 0 || failed > 0 {
		t.Logf("the manager's log:\n%s", logs)
	}
	t.Logf("manager counts: widgets=%d reconciles=%d reconcile-errors=%d conflicts-logged=%d decisions-twice=%d", widgetsAtOnce, reconciles, failed, conflicts, twice)
	fleetCounts(t, logs.String())
}

// logCounts are the reconcile errors of kind's controller logged but one
// the manager's stop cancelled, and the conflicts among them (a server's
// 409 and a write the patcher refused as one). A NotFound is not counted:
// once fleetDeleted's Ferries are gone, a reconcile that read one from a
// cache behind the deletion writes its status and gets a 404, before
// statuspatch (Status().Update) and after (Flush) alike, and the
// tutorial's Reconcile returns it.
func logCounts(log, kind string) (failed, conflicts int) {
	for _, l := range strings.Split(log, "\n") {
		if !strings.Contains(l, "Reconciler error") || !strings.Contains(l, `"controllerKind": "`+kind+`"`) || strings.Contains(l, `not found"}`) {
			continue
		}
		if !strings.Contains(l, "context canceled") {
			failed++
		}
		if strings.Contains(l, "Operation cannot be fulfilled") {
			conflicts++
		}
	}
	return failed, conflicts
}

// decided reports whether w's status is the reconciler's whole decision.
func decided(w *widgetsv1.Widget) bool {
	return len(w.Status.Parts) == int(w.Spec.Size) && w.Status.ObservedGeneration == w.Generation &&
		meta.IsStatusConditionTrue(w.Status.Conditions, "Ready") && w.Status.Summary == fmt.Sprintf("%d parts", w.Spec.Size)
}

// reconcileCount is controller-runtime's count of the named controller's
// reconciles.
func reconcileCount(t *testing.T, controller string) int {
	families, err := metrics.Registry.Gather()
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, f := range families {
		if f.GetName() == "controller_runtime_reconcile_total" {
			for _, m := range f.GetMetric() {
				for _, l := range m.GetLabel() {
					if l.GetName() == "controller" && l.GetValue() == controller {
						n += int(m.GetCounter().GetValue())
					}
				}
			}
		}
	}
	return n
}
