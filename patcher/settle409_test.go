package patcher_test

import (
	"errors"
	"strings"
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/statuspatch/statuspatch/patcher"
)

// A fake client keeps no history: its list ignores the resourceVersion
// and its watch starts now. Without a watcher, a 409 whose read is the next
// resourceVersion after the base is read as the first version after it (a
// Conflict when the evidence suffices; here, a built-in kind whose schema
// the fake does not publish, it may be Unknown for want of it); one whose read is
// two versions on cannot be, and is ErrWriteOutcomeUnknown naming how to
// make it decidable, never a Conflict taken on trust (issue 30). The real
// server's side is testenv/internal/patcherit/settle409_test.go.
func TestWithoutAWatcherAFakeClientsConflict(t *testing.T) {
	for _, writes := range []int{1, 2} {
		c, other, _ := newClient(t)
		key := client.ObjectKeyFromObject(deployment())
		p, err := patcher.Fetch(ctx, c, key, &appsv1.Deployment{}, patcher.WithMetrics(nil))
		if err != nil {
			t.Fatal(err)
		}
		for i := range writes {
			d := &appsv1.Deployment{}
			if err := other.Get(ctx, key, d); err != nil {
				t.Fatal(err)
			}
			d.Status.ReadyReplicas = int32(10 + i)
			if err := other.Status().Update(ctx, d); err != nil {
				t.Fatal(err)
			}
		}
		p.Object().Status.AvailableReplicas = 7
		err = p.Flush(ctx)
		t.Logf("%d writes after the base: %v", writes, err)
		switch {
		case writes == 1 && (err == nil || !apierrors.IsConflict(err) && !strings.Contains(err.Error(), "schema")):
			// The read is the first version after the base, but whether it
			// is ours takes the object's schema, which a fake client does
			// not publish for a built-in kind: a Conflict, or Unknown for
			// want of the schema; never nil.
			t.Fatalf("one write after the base: Flush = %v; want a Conflict or ErrWriteOutcomeUnknown for want of the schema", err)
		case writes == 2 && (!errors.Is(err, patcher.ErrWriteOutcomeUnknown) || apierrors.IsConflict(err) || !strings.Contains(err.Error(), "WithWatcher")):
			t.Fatalf("two writes after the base: Flush = %v; want ErrWriteOutcomeUnknown naming WithWatcher, not a Conflict", err)
		}
	}
}
