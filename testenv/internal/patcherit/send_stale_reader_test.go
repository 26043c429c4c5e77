package patcherit_test

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/client-go/rest"
	"sigs.k8s.io/controller-runtime/pkg/client"

	v1 "github.com/statuspatch/statuspatch/internal/testapi/v1"
	"github.com/statuspatch/statuspatch/patcher"
	"github.com/statuspatch/statuspatch/testenv"
)

// Retry's settling read after a resend's 409, through an API reader that
// lags behind this process's own earlier write. The Retry's write was
// stored (its answer lost as a 503 with Retry-After, client-go's resend
// refused with a 409). The API reader, fresh when the patcher was made,
// then returns the version from before the process's first write: the
// version book calls that read stale. A stale read cannot show whether the
// write was stored; the status subresource (never cached) can. Retry must
// settle from it (nil, stored once, mutate run once) or say
// ErrWriteOutcomeUnknown, never ErrStaleCache, whose docs say nothing was
// sent.
//
// When the status subresource cannot be read either (here refused with a
// 403), the outcome is ErrWriteOutcomeUnknown.
//
// Before: Retry returned the StaleCacheError ("nothing was sent") for the
// stored write.
func TestRetryAResendsStaleSettlingReadIsNotStaleCache(t *testing.T) {
	e := env(t)
	for _, refused := range []bool{false, true} {
		name := "status read"
		if refused {
			name = "status read refused"
		}
		t.Run(name, func(t *testing.T) { retryAfterStaleSettlingRead(t, e, refused) })
	}
}

func retryAfterStaleSettlingRead(t *testing.T, e *testenv.Env, statusReadRefused bool) {
	key := newWidget(t, e.Client)
	before := get(t, e.Client, key) // the version the reader falls back to

	var armed atomic.Bool
	reader := &switchableReader{Reader: e.Client}
	cfg := rest.CopyConfig(e.Config)
	cfg.Wrap(func(rt http.RoundTripper) http.RoundTripper {
		return roundTripFunc(func(req *http.Request) (*http.Response, error) {
			if statusReadRefused && req.Method == http.MethodGet && strings.HasSuffix(req.URL.Path, "/status") {
				return statusResponse(req, http.StatusForbidden, "Forbidden", "status read refused (injected)", nil), nil
			}
			if req.Method != http.MethodPatch || !strings.HasSuffix(req.URL.Path, "/status") || !armed.CompareAndSwap(true, false) {
				return rt.RoundTrip(req)
			}
			resp, err := rt.RoundTrip(req)
			if err != nil {
				return nil, err
			}
			_ = resp.Body.Close()
			reader.lagAt(before) // from now on the reader shows the version before the own write
			return statusResponse(req, http.StatusServiceUnavailable, http.StatusText(http.StatusServiceUnavailable),
				"stored, then the answer was lost (injected)", http.Header{"Retry-After": {"0"}}), nil
		})
	})
	c, err := client.New(cfg, client.Options{Scheme: e.Scheme, Mapper: e.Mapper})
	if err != nil {
		t.Fatal(err)
	}

	// The process's own earlier write: the version book now knows a
	// version newer than `before`.
	first, err := patcher.Fetch(ctx, c, key, &v1.Widget{}, patcher.WithAPIReader(reader), patcher.WithMetrics(nil), fastRetry)
	if err != nil {
		t.Fatal(err)
	}
	if err := appendItem("earlier")(first.Object()); err != nil {
		t.Fatal(err)
	}
	if err := first.Flush(ctx); err != nil {
		t.Fatalf("the earlier write: %v", err)
	}

	p, err := patcher.Fetch(ctx, c, key, &v1.Widget{}, patcher.WithAPIReader(reader), patcher.WithMetrics(nil), fastRetry)
	if err != nil {
		t.Fatal(err)
	}
	armed.Store(true)
	runs, err := decideMine(p, true)
	stored := countOf(get(t, e.Client, key).Status.Items, "mine")
	switch {
	case armed.Load():
		t.Fatal("no status write reached the server")
	case stored != 1 || runs != 1:
		t.Fatalf("Retry = %v after %d runs of mutate, mine stored %d times; want stored once, mutate run once", err, runs, stored)
	case statusReadRefused && !errors.Is(err, patcher.ErrWriteOutcomeUnknown):
		t.Fatalf("Retry = %v; want ErrWriteOutcomeUnknown: neither read can show the write", err)
	case statusReadRefused:
		// Unknown, as it must be.
	case errors.Is(err, patcher.ErrStaleCache):
		t.Fatalf("Retry = %v; want nil or ErrWriteOutcomeUnknown: the write was sent and stored, and ErrStaleCache says nothing was sent", err)
	case apierrors.IsConflict(err):
		t.Fatalf("Retry = %v; want nil or ErrWriteOutcomeUnknown: the write is stored", err)
	case err != nil && !errors.Is(err, patcher.ErrWriteOutcomeUnknown):
		t.Fatalf("Retry = %v; want nil or ErrWriteOutcomeUnknown", err)
	case err != nil:
		t.Fatalf("Retry = %v; want nil: the status subresource's read shows the write stored", err)
	}
}

// switchableReader reads through Reader until lagAt, then returns a copy
// of the object it was given for that object's key.
type switchableReader struct {
	client.Reader
	lagged atomic.Pointer[v1.Widget]
}

func (r *switchableReader) lagAt(w *v1.Widget) { r.lagged.Store(w.DeepCopy()) }

func (r *switchableReader) Get(ctx context.Context, key client.ObjectKey, obj client.Object, opts ...client.GetOption) error {
	if w := r.lagged.Load(); w != nil && key == client.ObjectKeyFromObject(w) {
		if out, ok := obj.(*v1.Widget); ok {
			w.DeepCopyInto(out)
			return nil
		}
	}
	return r.Reader.Get(ctx, key, obj, opts...)
}
