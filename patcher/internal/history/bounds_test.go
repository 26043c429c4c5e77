package history_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/fake"
	"sigs.k8s.io/controller-runtime/pkg/client/interceptor"

	"github.com/statuspatch/statuspatch/patcher/internal/history"
)

// The watch's bounds, as docs/patcher.md's error table states them (10 s
// for a configured watcher, 2 s for a client's own watch): a watch that
// gets no event ends at its own bound with an error naming it, which the
// patcher reports as ErrWriteOutcomeUnknown (the client's own watch only
// when the lists after it cannot tell either: the real server's
// TestErrTableNoEventWithinTheClientsOwnWatch). The bounds are shortened
// here, each to its own value, so that each watch's error names the one
// it ran under.
func TestFirstWatchBounds(t *testing.T) {
	if history.Timeout != 10*time.Second || history.ImplicitTimeout != 2*time.Second {
		t.Fatalf("bounds %s and %s; docs/patcher.md's error table says 10 s and 2 s", history.Timeout, history.ImplicitTimeout)
	}
	timeout, implicit := history.Timeout, history.ImplicitTimeout
	t.Cleanup(func() { history.Timeout, history.ImplicitTimeout = timeout, implicit })
	history.Timeout, history.ImplicitTimeout = time.Millisecond, 2*time.Millisecond

	s := source(nil)
	s.Watcher = watcher(t) // no event
	if _, err := history.First(context.Background(), s, "10", "u", "13"); err == nil || !strings.Contains(err.Error(), "no event within 1ms") {
		t.Fatalf("a configured watcher: err = %v; want no event within its bound (Timeout)", err)
	}

	refused := fake.NewClientBuilder().WithInterceptorFuncs(interceptor.Funcs{
		List: func(context.Context, client.WithWatch, client.ObjectList, ...client.ListOption) error {
			return errors.New("list refused (test)")
		},
	}).Build()
	s = source(refused)
	s.Implicit = watcher(t) // no event
	_, err := history.First(context.Background(), s, "10", "u", "13")
	if err == nil || !strings.Contains(err.Error(), "no event within 2ms") || !strings.Contains(err.Error(), "list refused") {
		t.Fatalf("a client's own watch, then lists: err = %v; want no event within its bound (ImplicitTimeout), and the lists' refusal", err)
	}
}
