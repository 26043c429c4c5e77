package patcherit_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"

	v1 "github.com/statuspatch/statuspatch/internal/testapi/v1"
	"github.com/statuspatch/statuspatch/patcher"
)

// Gizmo's status has a required nullable field (owner), a map that keeps
// null values (notes) and a map whose values the schema does not let be
// null (tags). These tests hold Flush to the standard of Status().Update:
// every status Update can store, Flush writes, in one request, under the
// optimistic lock.

func newGizmo(t *testing.T, c client.Client) *v1.Gizmo {
	t.Helper()
	g := &v1.Gizmo{ObjectMeta: metav1.ObjectMeta{Name: objectName(t), Namespace: "default"}}
	if err := c.Create(ctx, g); err != nil {
		t.Fatal(err)
	}
	return g
}

// storedStatus reads the object's status as the server stores it, as JSON
// (unstructured, so nulls and missing members are told apart).
func storedStatus(t *testing.T, c client.Client, key client.ObjectKey) string {
	t.Helper()
	u := &unstructured.Unstructured{}
	u.SetGroupVersionKind(v1.GroupVersion.WithKind("Gizmo"))
	if err := c.Get(ctx, key, u); err != nil {
		t.Fatal(err)
	}
	b, err := json.Marshal(u.Object["status"])
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func strptr(s string) *string { return &s }

// TestNullWriteMechanisms measures what each way of writing status does
// with a null the schema allows, on a fresh object (no status yet): the
// facts behind Flush's choice of a JSON Patch for such writes
// (docs/patcher.md, "Writes that carry null").
func TestNullWriteMechanisms(t *testing.T) {
	e := env(t)
	c := e.Client
	status := `{"owner":null,"phase":"Ready","notes":{"a":null}}`
	want := `{"notes":{"a":null},"owner":null,"phase":"Ready"}`

	// Status().Update stores it.
	g := newGizmo(t, c)
	g.Status = v1.GizmoStatus{Phase: "Ready", Notes: map[string]*string{"a": nil}}
	if err := c.Status().Update(ctx, g); err != nil {
		t.Fatalf("Status().Update: %v", err)
	}
	if got := storedStatus(t, c, client.ObjectKeyFromObject(g)); got != want {
		t.Fatalf("after Status().Update, stored %s, want %s", got, want)
	}

	// A JSON merge patch cannot: null deletes owner, and the server
	// rejects a status without its required field.
	g = newGizmo(t, c)
	merge := fmt.Sprintf(`{"metadata":{"resourceVersion":%q},"status":%s}`, g.ResourceVersion, status)
	err := c.Status().Patch(ctx, g, client.RawPatch(types.MergePatchType, []byte(merge)))
	if !apierrors.IsInvalid(err) || !strings.Contains(err.Error(), "owner") {
		t.Fatalf("merge patch: got %v, want 422 naming owner", err)
	}

	// A JSON Patch stores it, and its resourceVersion replace is the lock.
	g = newGizmo(t, c)
	rv := g.ResourceVersion
	jp := fmt.Sprintf(`[{"op":"replace","path":"/metadata/resourceVersion","value":%q},{"op":"add","path":"/status","value":%s}]`, rv, status)
	if err := c.Status().Patch(ctx, g, client.RawPatch(types.JSONPatchType, []byte(jp))); err != nil {
		t.Fatalf("JSON Patch: %v", err)
	}
	if got := storedStatus(t, c, client.ObjectKeyFromObject(g)); got != want {
		t.Fatalf("after JSON Patch, stored %s, want %s", got, want)
	}
	stale := &v1.Gizmo{ObjectMeta: g.ObjectMeta}
	stale.ResourceVersion = rv
	err = c.Status().Patch(ctx, stale, client.RawPatch(types.JSONPatchType, []byte(jp)))
	if !apierrors.IsConflict(err) {
		t.Fatalf("JSON Patch at a stale resourceVersion: got %v, want a Conflict", err)
	}

	// Server-side apply with the resourceVersion (the other optimistic
	// write that can carry JSON): measured here, not chosen (see the docs).
	g = newGizmo(t, c)
	u := &unstructured.Unstructured{}
	if err := json.Unmarshal([]byte(fmt.Sprintf(`{"apiVersion":%q,"kind":"Gizmo","metadata":{"name":%q,"namespace":"default","resourceVersion":%q},"status":%s}`,
		v1.GroupVersion.String(), g.Name, g.ResourceVersion, status)), &u.Object); err != nil {
		t.Fatal(err)
	}
	err = c.Status().Patch(ctx, u, client.Apply, client.FieldOwner("measure"), client.ForceOwnership) //nolint:staticcheck // measuring apply itself
	got := ""
	if err == nil {
		got = storedStatus(t, c, client.ObjectKeyFromObject(g))
	}
	t.Logf("server-side apply of %s: err=%v stored=%s", status, err, got)
	if err == nil && got == want {
		t.Log("apply stored the nulls too")
	}
}

// fetchGizmo makes a patcher over a fresh read of the Gizmo, through c.
func fetchGizmo(t *testing.T, c client.Client, key client.ObjectKey, opts ...patcher.Option) *patcher.Patcher[*v1.Gizmo] {
	t.Helper()
	p, err := patcher.Fetch(ctx, c, key, &v1.Gizmo{}, opts...)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// flushOnce flushes and returns the bodies of the requests it sent.
func flushOnce(t *testing.T, p interface{ Flush(context.Context) error }, rec *recorder) []string {
	t.Helper()
	before := len(rec.requests())
	if err := p.Flush(ctx); err != nil {
		t.Fatalf("Flush: %v", err)
	}
	var bodies []string
	for _, r := range rec.requests()[before:] {
		bodies = append(bodies, r.Method+" "+string(r.Body))
	}
	return bodies
}

func TestFlushWritesARequiredNullableField(t *testing.T) {
	e := env(t)
	c, rec := countingClient(t, e)
	key := client.ObjectKeyFromObject(newGizmo(t, e.Client))

	// The first status write: owner stays nil, which the server requires
	// to be sent (as null). The status decoded to zero, so the patcher
	// first reads whether the server holds a status object (with fields
	// the Go type lacks, which adding status whole would replace): here it
	// holds none, and status is added whole.
	p := fetchGizmo(t, c, key)
	p.Object().Status.Phase = "Ready"
	sent := flushOnce(t, p, rec)
	if len(sent) != 2 || sent[0] != "GET " || !strings.HasPrefix(sent[1], "PATCH [") || !strings.Contains(sent[1], `"path":"/status"`) {
		t.Fatalf("first write sent %q, want a GET and one JSON Patch adding status", sent)
	}
	if got, want := storedStatus(t, c, key), `{"owner":null,"phase":"Ready"}`; got != want {
		t.Fatalf("stored %s, want %s", got, want)
	}

	// A change without null stays a merge patch.
	p.Object().Status.Owner = strptr("alice")
	if sent := flushOnce(t, p, rec); len(sent) != 1 || !strings.HasPrefix(sent[0], "PATCH {") {
		t.Fatalf("setting owner sent %q, want one merge patch", sent)
	}
	// Back to null: a merge patch would delete the field.
	p.Object().Status.Owner = nil
	if sent := flushOnce(t, p, rec); len(sent) != 1 || !strings.HasPrefix(sent[0], "PATCH [") {
		t.Fatalf("clearing owner sent %q, want one JSON Patch", sent)
	}
	if got, want := storedStatus(t, c, key), `{"owner":null,"phase":"Ready"}`; got != want {
		t.Fatalf("stored %s, want %s", got, want)
	}
	// Settled: the next reconcile writes nothing.
	p = fetchGizmo(t, c, key)
	p.Object().Status.Owner = nil
	p.Object().Status.Phase = "Ready"
	if sent := flushOnce(t, p, rec); len(sent) != 0 {
		t.Fatalf("settled status sent %q", sent)
	}
}

func TestNullWriteKeepsTheLock(t *testing.T) {
	e := env(t)
	key := client.ObjectKeyFromObject(newGizmo(t, e.Client))
	p := fetchGizmo(t, e.Client, key)
	p.Object().Status.Owner = strptr("alice")
	p.Object().Status.Phase = "Ready"
	if err := p.Flush(ctx); err != nil {
		t.Fatal(err)
	}

	stale := fetchGizmo(t, e.Client, key)
	other := fetchGizmo(t, e.Client, key)
	other.Object().Status.Phase = "Moved"
	if err := other.Flush(ctx); err != nil {
		t.Fatal(err)
	}
	stale.Object().Status.Owner = nil
	if err := stale.Flush(ctx); !apierrors.IsConflict(err) {
		t.Fatalf("null write on a stale base: got %v, want a Conflict", err)
	}
	if got, want := storedStatus(t, e.Client, key), `{"owner":"alice","phase":"Moved"}`; got != want {
		t.Fatalf("stored %s, want %s (the other writer's phase kept)", got, want)
	}
	// Retry re-reads and writes the null on the fresh state.
	stale.Object().Status.Owner = strptr("alice") // nothing pending
	if err := stale.Retry(ctx, func(g *v1.Gizmo) error { g.Status.Owner = nil; return nil }); err != nil {
		t.Fatal(err)
	}
	if got, want := storedStatus(t, e.Client, key), `{"owner":null,"phase":"Moved"}`; got != want {
		t.Fatalf("stored %s, want %s", got, want)
	}
}

func TestFlushWritesNullMapValues(t *testing.T) {
	e := env(t)
	c, rec := countingClient(t, e)
	key := client.ObjectKeyFromObject(newGizmo(t, e.Client))
	p := fetchGizmo(t, c, key)
	p.Object().Status.Phase = "Ready"
	if err := p.Flush(ctx); err != nil {
		t.Fatal(err)
	}
	p.Object().Status.Notes = map[string]*string{"a": nil, "b": strptr("x")}
	if sent := flushOnce(t, p, rec); len(sent) != 1 || !strings.HasPrefix(sent[0], "PATCH [") {
		t.Fatalf("null map value sent %q, want one JSON Patch", sent)
	}
	if got, want := storedStatus(t, c, key), `{"notes":{"a":null,"b":"x"},"owner":null,"phase":"Ready"}`; got != want {
		t.Fatalf("stored %s, want %s", got, want)
	}
	// Settled: a new reconcile with the same notes sends nothing.
	p = fetchGizmo(t, c, key)
	p.Object().Status.Notes = map[string]*string{"a": nil, "b": strptr("x")}
	if sent := flushOnce(t, p, rec); len(sent) != 0 {
		t.Fatalf("settled notes sent %q", sent)
	}
	// Deleting a key is what a merge patch's null means: a merge patch.
	delete(p.Object().Status.Notes, "a")
	if sent := flushOnce(t, p, rec); len(sent) != 1 || !strings.HasPrefix(sent[0], "PATCH {") {
		t.Fatalf("deleting a key sent %q, want one merge patch", sent)
	}
	if got, want := storedStatus(t, c, key), `{"notes":{"b":"x"},"owner":null,"phase":"Ready"}`; got != want {
		t.Fatalf("stored %s, want %s", got, want)
	}
}

// A null the schema does not allow cannot be stored by any write: the
// server prunes it. Flush reports that as divergence instead of writing it
// again on every reconcile unnoticed.
func TestNonNullableMapValueIsReportedAsDivergence(t *testing.T) {
	e := env(t)
	key := client.ObjectKeyFromObject(newGizmo(t, e.Client))
	p := fetchGizmo(t, e.Client, key, patcher.WithDivergenceError())
	p.Object().Status.Tags = map[string]*string{"a": nil, "b": strptr("x")}
	err := p.Flush(ctx)
	if !errors.Is(err, patcher.ErrStatusDiverged) || !strings.Contains(err.Error(), "status.tags.a") {
		t.Fatalf("got %v, want ErrStatusDiverged naming status.tags.a", err)
	}
	if got, want := storedStatus(t, e.Client, key), `{"owner":null,"tags":{"b":"x"}}`; got != want {
		t.Fatalf("stored %s, want %s", got, want)
	}
}

// BenchmarkNullWrite compares the two optimistic writes that can carry a
// null, on the same server and object shape: Flush's JSON Patch and a
// server-side apply of the whole status with the resourceVersion, beside
// Flush's merge patch for the same change without a null.
//
//	cd testenv && go test ./internal/patcherit -run '^$' -bench NullWrite -benchtime 200x
func BenchmarkNullWrite(b *testing.B) {
	e := env(b)
	g := &v1.Gizmo{ObjectMeta: metav1.ObjectMeta{Name: fmt.Sprintf("bench-null-%d", nameSeq.Add(1)), Namespace: "default"}}
	if err := e.Client.Create(ctx, g); err != nil {
		b.Fatal(err)
	}
	key := client.ObjectKeyFromObject(g)
	b.Run("flush-jsonpatch", func(b *testing.B) {
		p, err := patcher.Fetch(ctx, e.Client, key, &v1.Gizmo{})
		if err != nil {
			b.Fatal(err)
		}
		for i := range b.N {
			p.Object().Status.Notes = map[string]*string{"a": nil, "n": strptr(fmt.Sprint(i))}
			if err := p.Flush(ctx); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("flush-merge", func(b *testing.B) {
		p, err := patcher.Fetch(ctx, e.Client, key, &v1.Gizmo{})
		if err != nil {
			b.Fatal(err)
		}
		for i := range b.N {
			p.Object().Status.Notes = map[string]*string{"n": strptr(fmt.Sprint(i))}
			if err := p.Flush(ctx); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("apply-optimistic", func(b *testing.B) {
		cur := &v1.Gizmo{}
		if err := e.Client.Get(ctx, key, cur); err != nil {
			b.Fatal(err)
		}
		rv := cur.ResourceVersion
		for i := range b.N {
			u := &unstructured.Unstructured{}
			body := fmt.Sprintf(`{"apiVersion":%q,"kind":"Gizmo","metadata":{"name":%q,"namespace":"default","resourceVersion":%q},"status":{"owner":null,"notes":{"a":null,"n":"%d"}}}`,
				v1.GroupVersion.String(), key.Name, rv, i)
			if err := json.Unmarshal([]byte(body), &u.Object); err != nil {
				b.Fatal(err)
			}
			if err := e.Client.Status().Patch(ctx, u, client.Apply, client.FieldOwner("bench"), client.ForceOwnership); err != nil { //nolint:staticcheck // the alternative measured
				b.Fatal(err)
			}
			rv = u.GetResourceVersion()
		}
	})
}
