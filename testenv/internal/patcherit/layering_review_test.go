package patcherit_test

import (
	"errors"
	"testing"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"

	v1 "github.com/statuspatch/statuspatch/internal/testapi/v1"
	"github.com/statuspatch/statuspatch/patcher"
)

// The unsaved check's exact read (unsaved.go, readExact) on the real
// server: the caller's own r.Patch, then another writer, then Flush. The
// fields the caller's object holds are compared with the version its own
// write produced, listed at that exact resourceVersion, so a Flush whose
// object holds no unsaved change is the re-base's Conflict (another writer
// came after), never ErrNonStatusChange.

// ownPatchThenOther runs the caller's own merge patch own on p's object
// (leaving it at the resourceVersion that write gave it), then another
// writer's merge patch other through a separate object, and returns the
// Flush of a status change.
func ownPatchThenOther(t *testing.T, own, other string) error {
	t.Helper()
	e := env(t)
	key := newWidget(t, e.Client)
	p, err := patcher.Fetch(ctx, e.Client, key, &v1.Widget{})
	if err != nil {
		t.Fatal(err)
	}
	if err := e.Client.Patch(ctx, p.Object(), client.RawPatch(types.MergePatchType, []byte(own))); err != nil {
		t.Fatal(err)
	}
	if err := e.Client.Patch(ctx, get(t, e.Client, key), client.RawPatch(types.MergePatchType, []byte(other))); err != nil {
		t.Fatal(err)
	}
	p.Object().Status.Phase = "Ready"
	return p.Flush(ctx)
}

func wantReBaseConflict(t *testing.T, err error) {
	t.Helper()
	if errors.Is(err, patcher.ErrNonStatusChange) || !apierrors.IsConflict(err) {
		t.Fatalf("Flush = %v, want the re-base's Conflict: the object holds no change its own write did not store", err)
	}
}

// TestUnsavedExactReadTellsOwnWriteFromOthers: the own write stored
// spec.data "mine", another writer then "theirs". Without the exact read
// (the fallback compares with the base and the fresh read) "mine" differs
// from both and would be called unsaved; the exact read shows the own
// write stored it.
func TestUnsavedExactReadTellsOwnWriteFromOthers(t *testing.T) {
	wantReBaseConflict(t, ownPatchThenOther(t, `{"spec":{"data":"mine"}}`, `{"spec":{"data":"theirs"}}`))
}

// TestUnsavedExactReadKeepsEmptyMap: the own write stored spec.labels as
// {} (an omitempty map), which the caller's object holds as an empty,
// non-nil map. The exact read must hold the version as the server sent
// it: re-encoding the listed object drops the empty map (omitempty), and
// the nil map then differs from the caller's empty one (reflect.DeepEqual).
func TestUnsavedExactReadKeepsEmptyMap(t *testing.T) {
	wantReBaseConflict(t, ownPatchThenOther(t, `{"spec":{"labels":{}}}`, `{"metadata":{"labels":{"other":"x"}}}`))
}
