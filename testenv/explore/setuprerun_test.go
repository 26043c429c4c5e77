package explore_test

import (
	"strings"
	"sync"
	"testing"

	"github.com/prometheus/client_golang/prometheus"
	ctrl "sigs.k8s.io/controller-runtime"

	"github.com/statuspatch/statuspatch/testenv/explore"
)

// Setup runs per schedule and after every crash. A main.go-style setup
// that registers its collectors on a global registry (MustRegister)
// panics on its second run; one behind a sync.Once builds nothing the
// second time. Either is an error of Run that says Setup is not
// re-runnable and where to look, not a crash of the test nor "the
// manager lacks" (what a panic on the first run means).
func TestSetupNotReRunnable(t *testing.T) {
	registry := prometheus.NewRegistry() // the operator's global metrics.Registry
	var once sync.Once
	for name, tc := range map[string]struct {
		setup func(ctrl.Manager) error
		want  []string
	}{
		"MustRegister": {func(mgr ctrl.Manager) error {
			registry.MustRegister(prometheus.NewCounter(prometheus.CounterOpts{Name: "widget_reconciles_total", Help: "reconciles"}))
			return (&gizmoReconciler{}).SetupWithManager(mgr)
		}, []string{"Scenario.Setup is not re-runnable: duplicate metrics collector registration attempted", "MustRegister", "sync.Once"}},
		"sync.Once": {func(mgr ctrl.Manager) error {
			var err error
			once.Do(func() { err = (&gizmoReconciler{}).SetupWithManager(mgr) })
			return err
		}, []string{"Scenario.Setup is not re-runnable: it built 0 controllers, 1 the first time", "MustRegister", "sync.Once"}},
	} {
		s := gizmoScenario(gizmoReconciler{})
		s.Reconcilers, s.Setup = nil, tc.setup
		_, err := explore.Run(t.Context(), s, serverOptions(t))
		for _, want := range tc.want {
			if err == nil || !strings.Contains(err.Error(), want) {
				t.Errorf("%s: got error %v, want one containing %q", name, err, want)
			}
		}
	}
}
