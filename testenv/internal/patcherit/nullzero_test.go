package patcherit_test

import (
	"testing"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"

	v1 "github.com/statuspatch/statuspatch/internal/testapi/v1"
	"github.com/statuspatch/statuspatch/patcher"
)

// Issue 23, item 2: a write that carries null must not replace the status
// another writer stored.

// gizmoV0 is a Gizmo as an older build of an operator knows it: its status
// models owner and phase, not notes.
type gizmoV0 struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	Status            gizmoV0Status `json:"status,omitempty"`
}

type gizmoV0Status struct {
	Owner *string `json:"owner"`
	Phase string  `json:"phase,omitempty"`
}

func (g *gizmoV0) DeepCopyObject() runtime.Object {
	out := *g
	g.DeepCopyInto(&out.ObjectMeta)
	if g.Status.Owner != nil {
		owner := *g.Status.Owner
		out.Status.Owner = &owner
	}
	return &out
}

// Item 2: a write carrying null from a status that decoded to zero must
// not replace the status another writer stored (its notes, which this Go
// type lacks).
func TestNullWriteFromAZeroStatusKeepsAnotherWritersFields(t *testing.T) {
	e := env(t)
	g := newGizmo(t, e.Client)
	key := client.ObjectKeyFromObject(g)
	g.Status = v1.GizmoStatus{Notes: map[string]*string{"by": strptr("other-writer")}}
	if err := e.Client.Status().Update(ctx, g); err != nil {
		t.Fatal(err)
	}

	s := runtime.NewScheme()
	s.AddKnownTypeWithName(v1.GroupVersion.WithKind("Gizmo"), &gizmoV0{})
	metav1.AddToGroupVersion(s, v1.GroupVersion)
	old, err := client.New(e.Config, client.Options{Scheme: s, Mapper: e.Mapper})
	if err != nil {
		t.Fatal(err)
	}
	p, err := patcher.Fetch(ctx, old, key, &gizmoV0{})
	if err != nil {
		t.Fatal(err)
	}
	p.Object().Status.Phase = "Ready" // owner stays nil: the write carries a null
	if err := p.Flush(ctx); err != nil {
		t.Fatalf("Flush: %v", err)
	}
	if got, want := storedStatus(t, e.Client, key), `{"notes":{"by":"other-writer"},"owner":null,"phase":"Ready"}`; got != want {
		t.Fatalf("stored %s, want %s: the other writer's notes must stay", got, want)
	}
}

// Item 2: when another writer wrote after the zero status was read, the
// write is a Conflict (nothing sent), and Retry writes on the fresh state,
// keeping what the other writer stored.
func TestNullWriteFromAZeroStatusOnAStaleBaseConflicts(t *testing.T) {
	e := env(t)
	g := newGizmo(t, e.Client)
	key := client.ObjectKeyFromObject(g)
	p := fetchGizmo(t, e.Client, key)

	g.Status = v1.GizmoStatus{Notes: map[string]*string{"by": strptr("other-writer")}}
	if err := e.Client.Status().Update(ctx, g); err != nil {
		t.Fatal(err)
	}
	p.Object().Status.Phase = "Ready"
	if err := p.Flush(ctx); !apierrors.IsConflict(err) {
		t.Fatalf("Flush on a stale zero base = %v, want a Conflict", err)
	}
	p = fetchGizmo(t, e.Client, key)
	if err := p.Retry(ctx, func(g *v1.Gizmo) error { g.Status.Phase = "Ready"; return nil }); err != nil {
		t.Fatal(err)
	}
	if got, want := storedStatus(t, e.Client, key), `{"notes":{"by":"other-writer"},"owner":null,"phase":"Ready"}`; got != want {
		t.Fatalf("stored %s, want %s", got, want)
	}
}
