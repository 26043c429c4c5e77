package testenv_test

import (
	"context"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	testv1 "github.com/statuspatch/statuspatch/internal/testapi/v1"
	"github.com/statuspatch/statuspatch/testenv"
	"github.com/statuspatch/statuspatch/testenv/internal/testapi"
)

// StartServer, the entry point for programs, starts a working server and its
// stop func shuts it down (and may be called again).
func TestStartServer(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	env, stop, err := testenv.StartServer(ctx,
		testenv.WithCRDs(testapi.CRDs()...),
		testenv.WithScheme(testScheme(t)),
		testenv.WithBackend(testenv.BackendEmbedded))
	if err != nil {
		t.Fatal(err)
	}
	stopped := false
	defer func() {
		if !stopped {
			stop()
		}
	}()
	t.Logf("started in %s", env.StartupTime)
	if len(env.CRDs) != 3 {
		t.Fatalf("installed %d CRDs, want 3", len(env.CRDs))
	}

	g := &testv1.Gadget{ObjectMeta: metav1.ObjectMeta{Name: "demo"}}
	if err := env.Client.Create(ctx, g); err != nil {
		t.Fatal(err)
	}

	began := time.Now()
	stop()
	stopped = true
	t.Logf("stopped in %s", time.Since(began))
	stop() // idempotent

	// The server is gone: a request fails rather than hanging or succeeding.
	short, cancelShort := context.WithTimeout(ctx, 10*time.Second)
	defer cancelShort()
	err = env.Client.Get(short, client.ObjectKeyFromObject(g), &testv1.Gadget{})
	if err == nil {
		t.Fatal("server still answers after stop")
	}
	t.Logf("after stop: %v", err)
}
