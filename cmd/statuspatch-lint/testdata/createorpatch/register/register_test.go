package register

import (
	"context"
	"os"
	"sync"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"

	v1alpha1 "github.com/statuspatch/statuspatch/examples/api/v1alpha1"
	"github.com/statuspatch/statuspatch/testenv"
)

// barrier holds the first two Gets until both have read: two reconciles
// that decide from the same state.
type barrier struct {
	client.Client
	mu      sync.Mutex
	arrived int
	both    chan struct{}
}

func (b *barrier) Get(ctx context.Context, key client.ObjectKey, obj client.Object, opts ...client.GetOption) error {
	err := b.Client.Get(ctx, key, obj, opts...)
	b.mu.Lock()
	b.arrived++
	n := b.arrived
	b.mu.Unlock()
	switch {
	case n == 2:
		close(b.both)
	case n < 2:
		<-b.both
	}
	return err
}

// Two reconciles of one Rollout, both reading it unnumbered: the number
// the server stores is the one each ends with, never one stored over
// another.
func TestRegisterTwiceAtOnce(t *testing.T) {
	crds := os.Getenv("LINTFIX_E2E_CRDS")
	if crds == "" {
		t.Fatal("LINTFIX_E2E_CRDS must name examples/config/crd/bases")
	}
	s := runtime.NewScheme()
	if err := v1alpha1.AddToScheme(s); err != nil {
		t.Fatal(err)
	}
	env := testenv.Start(t, testenv.WithCRDDirectory(crds), testenv.WithScheme(s))
	ctx := context.Background()
	ro := &v1alpha1.Rollout{
		// Labelled already: the mutate's label changes nothing, and
		// CreateOrPatch sends no patch of the main resource, whose answer's
		// resourceVersion its status patch's diff would then carry.
		ObjectMeta: metav1.ObjectMeta{Name: "web", Namespace: "default", Labels: map[string]string{"registered": "true"}},
		Spec:       v1alpha1.RolloutSpec{Version: "v1", Steps: 1},
	}
	if err := env.Client.Create(ctx, ro); err != nil {
		t.Fatal(err)
	}
	b := &barrier{Client: env.Client, both: make(chan struct{})}
	var got [2]int32
	var errs [2]error
	var wg sync.WaitGroup
	for i := range got {
		wg.Go(func() { got[i], errs[i] = Register(ctx, b, client.ObjectKeyFromObject(ro)) })
	}
	wg.Wait()
	stored := &v1alpha1.Rollout{}
	if err := env.Client.Get(ctx, client.ObjectKeyFromObject(ro), stored); err != nil {
		t.Fatal(err)
	}
	for i := range got {
		if errs[i] != nil {
			t.Fatalf("reconcile %d: %v", i+1, errs[i])
		}
		if got[i] != stored.Status.CompletedSteps {
			t.Errorf("reconcile %d handed out %d, and the server stored %d over it", i+1, got[i], stored.Status.CompletedSteps)
		}
	}
	if stored.Status.CompletedSteps == 0 || stored.Labels["registered"] != "true" {
		t.Errorf("stored %+v, labels %v: want a number and the label", stored.Status, stored.Labels)
	}
}
