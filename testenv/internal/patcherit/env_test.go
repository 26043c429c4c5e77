package patcherit_test

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"os"
	"regexp"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/go-logr/logr"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/client-go/rest"
	"sigs.k8s.io/controller-runtime/pkg/client"
	ctrllog "sigs.k8s.io/controller-runtime/pkg/log"

	v1 "github.com/statuspatch/statuspatch/internal/testapi/v1"
	"github.com/statuspatch/statuspatch/testenv"
	"github.com/statuspatch/statuspatch/testenv/internal/testapi"
)

var ctx = context.Background()

var (
	envOnce sync.Once
	shared  *testenv.Env
	stop    func()
)

// env returns one API server shared by the package's tests; each test works
// in its own namespace-less object names, so they don't interfere.
func env(t testing.TB) *testenv.Env {
	t.Helper()
	envOnce.Do(func() {
		s := runtime.NewScheme()
		if err := v1.AddToScheme(s); err != nil {
			t.Fatal(err)
		}
		var err error
		shared, stop, err = testenv.StartServer(ctx, testenv.WithCRDs(testapi.CRDs()...), testenv.WithScheme(s))
		if err != nil {
			t.Fatalf("start API server: %v", err)
		}
		t.Logf("API server ready in %s", shared.StartupTime)
	})
	if shared == nil {
		t.Fatal("API server failed to start in an earlier test")
	}
	return shared
}

func TestMain(m *testing.M) {
	// The patcher logs through controller-runtime's logger; without one set
	// it prints a stack on stderr after 30s (and the package runs longer).
	ctrllog.SetLogger(logr.Discard())
	code := m.Run()
	if stop != nil {
		stop()
	}
	os.Exit(code)
}

// request is one HTTP request the client sent.
type request struct {
	Method, Path string
	Body         []byte
}

// recorder is an http.RoundTripper wrapper that records requests.
type recorder struct {
	mu   sync.Mutex
	reqs []request
}

func (r *recorder) wrap(rt http.RoundTripper) http.RoundTripper {
	return roundTripFunc(func(req *http.Request) (*http.Response, error) {
		var body []byte
		if req.Body != nil {
			body, _ = io.ReadAll(req.Body)
			req.Body = io.NopCloser(bytes.NewReader(body))
		}
		r.mu.Lock()
		r.reqs = append(r.reqs, request{Method: req.Method, Path: req.URL.Path, Body: body})
		r.mu.Unlock()
		return rt.RoundTrip(req)
	})
}

func (r *recorder) requests() []request {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]request(nil), r.reqs...)
}

type roundTripFunc func(*http.Request) (*http.Response, error)

func (f roundTripFunc) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }

// countingClient returns a client on e whose every request is recorded.
func countingClient(t *testing.T, e *testenv.Env) (client.Client, *recorder) {
	t.Helper()
	rec := &recorder{}
	cfg := rest.CopyConfig(e.Config)
	cfg.Wrap(rec.wrap)
	c, err := client.New(cfg, client.Options{Scheme: e.Scheme, Mapper: e.Mapper})
	if err != nil {
		t.Fatal(err)
	}
	return c, rec
}

// newWidget creates a Widget named after the test and returns its key.
func newWidget(t *testing.T, c client.Client) client.ObjectKey {
	t.Helper()
	w := &v1.Widget{ObjectMeta: metav1.ObjectMeta{Name: objectName(t), Namespace: "default"}, Spec: v1.WidgetSpec{Size: 1, Data: "x"}}
	if err := c.Create(ctx, w); err != nil {
		t.Fatal(err)
	}
	return client.ObjectKeyFromObject(w)
}

var notDNS = regexp.MustCompile(`[^a-z0-9]+`)

var nameSeq atomic.Int64

// objectName derives a valid object name from the test's name, unique per
// call, so that go test -count=N works on the one shared server.
func objectName(t *testing.T) string {
	return fmt.Sprintf("%s-%d", strings.Trim(notDNS.ReplaceAllString(strings.ToLower(t.Name()), "-"), "-"), nameSeq.Add(1))
}

func get(t *testing.T, c client.Client, key client.ObjectKey) *v1.Widget {
	t.Helper()
	w := &v1.Widget{}
	if err := c.Get(ctx, key, w); err != nil {
		t.Fatal(err)
	}
	return w
}
