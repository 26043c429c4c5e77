package explore_test

import (
	"context"
	"errors"
	"testing"

	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/statuspatch/statuspatch/testenv/explore"
)

// A user action runs once: one that fails (a scale of a cluster the user
// already deleted) is not retried, so it is no error loop, even in a
// steady state.
func TestFailedActionIsNoErrorLoop(t *testing.T) {
	refused := explore.Action{Name: "refused", Run: func(context.Context, client.Client) error {
		return errors.New("the object is gone")
	}}
	res, err := explore.Run(t.Context(), gizmoScenario(gizmoReconciler{}, refused), serverOptions(t))
	if err != nil {
		t.Fatal(err)
	}
	if res.Violation != nil {
		t.Fatalf("a failed action reported:\n%s", res.Violation)
	}
}
