package explore_test

import (
	"context"
	"fmt"
	"os"
	"regexp"
	"strings"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"

	"github.com/statuspatch/statuspatch/patcher"
	"github.com/statuspatch/statuspatch/testenv"
	"github.com/statuspatch/statuspatch/testenv/explore"

	demov1 "github.com/statuspatch/statuspatch/examples/api/v1alpha1"
	"github.com/statuspatch/statuspatch/examples/internal/controller"
)

// TestRolloutCompletes is the scenario of docs/explore.md, verbatim
// (TestDocScenarioIsThisFile checks it).
func TestRolloutCompletes(t *testing.T) {
	env := testenv.Start(t, testenv.WithCRDDirectory("../../config/crd/bases"), testenv.WithScheme(scheme))
	explore.Check(t, explore.Scenario{
		Reconcilers: []explore.Reconciler{{
			Name: "rollout", For: &demov1.Rollout{},
			New: func(c client.Client, api client.Reader) reconcile.Reconciler {
				return &controller.RolloutReconciler{Client: patcher.ForManager(
					explore.Clients{Client: c, APIReader: api}, patcher.WithFieldOwner(controller.FieldOwner))}
			},
		}},
		Objects: []client.Object{&demov1.Rollout{
			ObjectMeta: metav1.ObjectMeta{Namespace: "default", Name: "demo"},
			Spec:       demov1.RolloutSpec{Version: "v1", Steps: 2},
		}},
		Invariant: func(ctx context.Context, r client.Reader) error { // at every steady state
			ro := &demov1.Rollout{}
			if err := r.Get(ctx, client.ObjectKey{Namespace: "default", Name: "demo"}, ro); err != nil {
				return err
			}
			if ro.Status.Phase != demov1.RolloutCompleted {
				return fmt.Errorf("phase %q, want Completed", ro.Status.Phase)
			}
			return nil
		},
	}, explore.Options{Backend: explore.Server(env), Budget: 3 * time.Second})
}

// TestDocScenarioIsThisFile: the first Go block of docs/explore.md is
// TestRolloutCompletes above, so the documented scenario compiles and runs.
func TestDocScenarioIsThisFile(t *testing.T) {
	// make test's digest of docs/ (the Makefile): go test's result cache
	// runs this test again when it changes, as it does not check files
	// outside the module, such as the page.
	_ = os.Getenv("STATUSPATCH_DOCS_DIGEST")
	doc, err := os.ReadFile("../../../docs/explore.md")
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile("(?s)```go\n(.*?)```").FindSubmatch(doc)
	if m == nil {
		t.Fatal("docs/explore.md: no Go block")
	}
	src, err := os.ReadFile("scenario_doc_test.go")
	if err != nil {
		t.Fatal(err)
	}
	// The doc's CRD directory is the user's; this test's is relative to it.
	block := strings.Replace(string(m[1]), `"config/crd/bases"`, `"../../config/crd/bases"`, 1)
	if !strings.Contains(string(src), block) {
		t.Fatalf("docs/explore.md's first Go block is not TestRolloutCompletes in scenario_doc_test.go:\n%s", m[1])
	}
	if n := strings.Count(block, "\n"); n >= 30 {
		t.Errorf("the documented scenario has %d lines, promised under 30", n)
	}
}
