package patcherit_test

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"net/http"
	"testing"

	"sigs.k8s.io/controller-runtime/pkg/client"

	v1 "github.com/statuspatch/statuspatch/internal/testapi/v1"
	"github.com/statuspatch/statuspatch/patcher"
	"github.com/statuspatch/statuspatch/testenv"
)

// TestNonStatusChangesUnsentNulls: seeded random sequences of Flushes of
// a Gizmo made WithNonStatusChangesUnsent (with or without
// WithDivergenceError), each after changes outside status in memory
// (labels, annotations, finalizers) and to the values a merge patch cannot
// write: the required nullable status.owner set to nil, null map values
// kept (status.notes) or pruned by the server (status.tags), nil and
// empty maps. After every Flush: only the status was sent, locked at the
// resourceVersion in memory; the server holds (unstructured, nulls told
// from missing members) what Status().Update of the same status stores on
// a twin, whether Flush wrote or had nothing to write; a write reported
// stored (nil, or ErrStatusDiverged) had a request, a failure none; the
// object in memory is the server's; no change outside status was stored.
//
//	cd testenv && go test ./internal/patcherit -run 'TestNonStatusChangesUnsentNulls/seed-3$' -v
func TestNonStatusChangesUnsentNulls(t *testing.T) {
	e := env(t)
	var writes, noops, diverged int
	defer func() {
		t.Logf("%d writes (%d ErrStatusDiverged), %d Flushes with nothing to write", writes, diverged, noops)
		if writes == 0 || noops == 0 || diverged == 0 {
			t.Errorf("an outcome never reached")
		}
	}()
	for seed := range uint64(20) {
		t.Run(fmt.Sprintf("seed-%d", seed+1), func(t *testing.T) {
			r := rand.New(rand.NewPCG(seed+1, 0x6e756c6c))
			c, rec := countingClient(t, e)
			key := client.ObjectKeyFromObject(newGizmo(t, e.Client))
			twin := client.ObjectKeyFromObject(newGizmo(t, e.Client))
			opts := []patcher.Option{patcher.WithNonStatusChangesUnsent()}
			if r.IntN(2) == 0 {
				opts = append(opts, patcher.WithDivergenceError())
			}
			p := fetchGizmo(t, c, key, opts...)
			for step := range 10 {
				obj := p.Object()
				gizmoOutside(r, obj, step)
				for range 1 + r.IntN(2) {
					gizmoStatus(r, &obj.Status)
				}
				before := obj.DeepCopy()
				n := len(rec.requests())
				err := p.Flush(ctx)
				sent := rec.requests()[n:]
				what := fmt.Sprintf("step %d: Flush of %s", step, jsonOf(before.Status))
				for _, q := range sent {
					x := exchange{Method: q.Method, Path: q.Path, Body: q.Body, ObjRV: before.ResourceVersion}
					// A GET: whether the server holds a status at all,
					// for a null written from a zero status.
					if werr := checkSentOnlyStatus(x, false); werr != nil || (!x.statusPatch() && q.Method != http.MethodGet) {
						t.Fatalf("%s: %s %s %v", what, q.Method, q.Path, werr)
					}
				}
				stored := err == nil || errors.Is(err, patcher.ErrStatusDiverged)
				switch {
				case len(sent) == 0:
					noops++
				case err != nil:
					diverged++
					fallthrough
				default:
					writes++
				}
				switch {
				case !stored:
					t.Fatalf("%s: %v", what, err)
				case err != nil && len(sent) == 0:
					t.Fatalf("%s: %v without a request", what, err)
				}
				// With nothing to write the server keeps what it held: the
				// typed status in memory is the server's (checked below),
				// even where Status().Update would have written a zero
				// status onto an object without one.
				if got, want := storedStatus(t, e.Client, key), gizmoTwinStores(t, e, twin, before.Status); len(sent) > 0 && got != want {
					t.Fatalf("%s (%d requests, %v): the server holds %s; Status().Update of the same status stores %s", what, len(sent), err, got, want)
				}
				server := &v1.Gizmo{}
				if err := e.Client.Get(ctx, key, server); err != nil {
					t.Fatal(err)
				}
				if jsonOf(gizmoParts(obj)) != jsonOf(gizmoParts(server)) {
					t.Fatalf("%s: in memory\n%s\nthe server's\n%s", what, jsonOf(gizmoParts(obj)), jsonOf(gizmoParts(server)))
				}
				if server.Labels["ours"] != "" || server.Annotations["ours"] != "" || len(server.Finalizers) != 0 {
					t.Fatalf("%s stored a change outside status: %s", what, jsonOf(server.ObjectMeta))
				}
			}
		})
	}
}

// gizmoParts are the parts of a Gizmo compared: its metadata and status.
func gizmoParts(g *v1.Gizmo) []any { return []any{g.ObjectMeta, g.Status} }

// gizmoOutside changes g outside status in memory.
func gizmoOutside(r *rand.Rand, g *v1.Gizmo, step int) {
	switch r.IntN(5) {
	case 0:
		g.Labels = map[string]string{"ours": fmt.Sprint(step)}
	case 1:
		g.Annotations = map[string]string{"ours": fmt.Sprint(step)}
	case 2:
		g.Finalizers = append(g.Finalizers, "ours.test/mem")
	case 3:
		g.Labels = map[string]string{}
	}
}

// gizmoStatus changes s: nil pointers, null map values, nil and empty maps.
func gizmoStatus(r *rand.Rand, s *v1.GizmoStatus) {
	switch r.IntN(10) {
	case 0:
		s.Owner = nil
	case 1:
		s.Owner = strptr(fmt.Sprintf("o%d", r.IntN(2)))
	case 2:
		s.Phase = fmt.Sprintf("p%d", r.IntN(2))
	case 3:
		s.Notes = nil
	case 4:
		s.Notes = map[string]*string{}
	case 5:
		s.Notes = map[string]*string{"x": nil, "y": strptr("v")}
	case 6:
		s.Notes = map[string]*string{"x": strptr("w")}
	case 7:
		s.Tags = map[string]*string{"a": nil, "b": strptr("x")} // a is pruned
	case 8:
		s.Tags = nil
	case 9:
		s.Phase = ""
	}
}

// gizmoTwinStores is the status, as the server stores it, that
// Status().Update of s stores on the twin.
func gizmoTwinStores(t *testing.T, e *testenv.Env, twin client.ObjectKey, s v1.GizmoStatus) string {
	t.Helper()
	g := &v1.Gizmo{}
	if err := e.Client.Get(ctx, twin, g); err != nil {
		t.Fatal(err)
	}
	g.Status = *s.DeepCopy()
	if err := e.Client.Status().Update(ctx, g); err != nil {
		t.Fatal(err)
	}
	return storedStatus(t, e.Client, twin)
}
