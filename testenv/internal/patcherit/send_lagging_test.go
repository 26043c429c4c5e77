package patcherit_test

import (
	"errors"
	"fmt"
	"net/http"
	"testing"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/client-go/rest"
	"sigs.k8s.io/controller-runtime/pkg/client"

	v1 "github.com/statuspatch/statuspatch/internal/testapi/v1"
	"github.com/statuspatch/statuspatch/patcher"
	"github.com/statuspatch/statuspatch/patchertest"
)

// Issue 37, case 7: a plain client whose reads come from a cache that
// lags (no API reader, no watcher), a stored write whose answer was lost
// (a 503 with Retry-After), and client-go's resend refused with a 409.
// Every read of the object through the client returns the base. The
// outcome must come from the server (the status subresource's GET, which
// no cache serves and the write path is allowed) or be
// ErrWriteOutcomeUnknown, never a Conflict: the write is stored. Alone,
// the read shows it stored: nil, stored once, and Retry does not decide
// again. With another writer's write on top of it before the resend, the
// history is read (lists at exact resourceVersions through the client):
// nil, or Unknown where it cannot be read, never a Conflict.
//
// Before: the three reads returned the base, and the 409 was taken for a
// Conflict; Retry stored the item twice.
func TestSendLaggingPlainClientAfterAResend(t *testing.T) {
	e := env(t)
	for _, overwritten := range []bool{false, true} {
		for _, retry := range []bool{false, true} {
			t.Run(fmt.Sprintf("overwritten=%v/retry=%v", overwritten, retry), func(t *testing.T) {
				key := newWidget(t, e.Client)
				var foreign func() error
				if overwritten {
					foreign = foreignAppend(ownClient(t), key, "theirs")
				}
				cfg := rest.CopyConfig(e.Config)
				cfg.Wrap(loseFirstAnswer(http.StatusServiceUnavailable, foreign))
				plain, err := client.New(cfg, client.Options{Scheme: e.Scheme, Mapper: e.Mapper})
				if err != nil {
					t.Fatal(err)
				}
				lagging := patchertest.NewClient(plain, patchertest.Faults{StaleReads: 1000})
				p, err := patcher.Fetch(ctx, lagging, key, &v1.Widget{}, patcher.WithMetrics(nil), fastRetry)
				if err != nil {
					t.Fatal(err)
				}
				runs, err := decideMine(p, retry)
				mine := countOf(get(t, e.Client, key).Status.Items, "mine")
				switch {
				case countOf(get(t, lagging, key).Status.Items, "mine") != 0:
					t.Fatal("the client's read holds the write: its cache does not lag")
				case apierrors.IsConflict(err) || mine != 1 || runs != 1:
					t.Fatalf("= %v after %d runs, mine stored %d times; want no Conflict, 1 run, stored once", err, runs, mine)
				case !overwritten && err != nil:
					t.Fatalf("= %v; want nil: the server's read holds the write", err)
				case err != nil && !errors.Is(err, patcher.ErrWriteOutcomeUnknown):
					t.Fatalf("= %v; want nil or ErrWriteOutcomeUnknown", err)
				}
			})
		}
	}
}
