package patcherit_test

import (
	"encoding/json"
	"errors"
	"net/http"
	"reflect"
	"strings"
	"testing"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"sigs.k8s.io/controller-runtime/pkg/client"

	v1 "github.com/statuspatch/statuspatch/internal/testapi/v1"
	"github.com/statuspatch/statuspatch/patcher"
)

func TestNoopFlushSendsNoRequest(t *testing.T) {
	e := env(t)
	c, rec := countingClient(t, e)
	key := newWidget(t, e.Client)
	p, err := patcher.Fetch(ctx, c, key, &v1.Widget{})
	if err != nil {
		t.Fatal(err)
	}
	before := len(rec.requests())
	p.Object().Status.Phase = "" // unchanged value
	for range 3 {
		if err := p.Flush(ctx); err != nil {
			t.Fatal(err)
		}
	}
	if n := len(rec.requests()) - before; n != 0 {
		t.Fatalf("no-op Flush sent %d requests: %+v", n, rec.requests()[before:])
	}
}

func TestPatchBodyHoldsOnlyResourceVersionAndStatus(t *testing.T) {
	e := env(t)
	c, rec := countingClient(t, e)
	key := newWidget(t, e.Client)
	p, err := patcher.Fetch(ctx, c, key, &v1.Widget{})
	if err != nil {
		t.Fatal(err)
	}
	rv := p.Object().ResourceVersion
	before := len(rec.requests())
	p.Object().Status.Phase = "Ready"
	p.Object().Status.Items = []string{"a"}
	if err := p.Flush(ctx); err != nil {
		t.Fatal(err)
	}
	reqs := rec.requests()[before:]
	if len(reqs) != 1 || reqs[0].Method != http.MethodPatch || !strings.HasSuffix(reqs[0].Path, "/widgets/"+key.Name+"/status") {
		t.Fatalf("requests = %+v, want one PATCH to the status subresource", reqs)
	}
	var body map[string]any
	if err := json.Unmarshal(reqs[0].Body, &body); err != nil {
		t.Fatal(err)
	}
	want := map[string]any{
		"metadata": map[string]any{"resourceVersion": rv},
		"status":   map[string]any{"phase": "Ready", "items": []any{"a"}},
	}
	if !reflect.DeepEqual(body, want) {
		t.Fatalf("body = %s\nwant %v", reqs[0].Body, want)
	}
	if p.Object().ResourceVersion == rv || p.HasChanges() {
		t.Fatal("after Flush the object must carry the new resourceVersion and the base must move")
	}
	p.Object().Status.Phase = "Done"
	if err := p.Flush(ctx); err != nil {
		t.Fatalf("second Flush from the moved base: %v", err)
	}
}

func TestStaleBaseGetsConflict(t *testing.T) {
	e := env(t)
	key := newWidget(t, e.Client)
	stale, err := patcher.Fetch(ctx, e.Client, key, &v1.Widget{})
	if err != nil {
		t.Fatal(err)
	}
	fresh, err := patcher.Fetch(ctx, e.Client, key, &v1.Widget{})
	if err != nil {
		t.Fatal(err)
	}
	fresh.Object().Status.Phase = "First"
	if err := fresh.Flush(ctx); err != nil {
		t.Fatal(err)
	}
	stale.Object().Status.Items = []string{"mine"}
	err = stale.Flush(ctx)
	if !apierrors.IsConflict(err) {
		t.Fatalf("stale Flush = %v, want 409 Conflict", err)
	}
	if got := stale.Object().Status.Items; len(got) != 1 || got[0] != "mine" {
		t.Fatalf("in-memory status lost on conflict: %v", got)
	}
	if got := get(t, e.Client, key).Status; got.Phase != "First" || len(got.Items) != 0 {
		t.Fatalf("server status %+v: the first write was overwritten", got)
	}
}

func TestNonStatusChangeIsRefused(t *testing.T) {
	e := env(t)
	c, rec := countingClient(t, e)
	key := newWidget(t, e.Client)
	p, err := patcher.Fetch(ctx, c, key, &v1.Widget{})
	if err != nil {
		t.Fatal(err)
	}
	before := len(rec.requests())
	p.Object().Spec.Size = 42
	p.Object().Labels = map[string]string{"team": "a"}
	p.Object().Status.Phase = "Ready"
	err = p.Flush(ctx)
	if !errors.Is(err, patcher.ErrNonStatusChange) || !strings.Contains(err.Error(), "spec") || !strings.Contains(err.Error(), "metadata.labels") {
		t.Fatalf("Flush = %v, want ErrNonStatusChange naming spec and metadata.labels", err)
	}
	if n := len(rec.requests()) - before; n != 0 {
		t.Fatalf("%d requests sent", n)
	}
}

func TestFinalizerThenFlush(t *testing.T) {
	e := env(t)
	t.Run("through the patcher", func(t *testing.T) {
		key := newWidget(t, e.Client)
		p, err := patcher.Fetch(ctx, e.Client, key, &v1.Widget{})
		if err != nil {
			t.Fatal(err)
		}
		p.Object().Status.Phase = "Provisioning"
		if _, err := p.AddFinalizer(ctx, "example.com/cleanup"); err != nil {
			t.Fatal(err)
		}
		p.Object().Status.Items = []string{"a"}
		if err := p.Flush(ctx); err != nil {
			t.Fatalf("Flush after AddFinalizer: %v", err)
		}
		got := get(t, e.Client, key)
		if len(got.Finalizers) != 1 || got.Status.Phase != "Provisioning" || len(got.Status.Items) != 1 {
			t.Fatalf("server object: finalizers %v, status %+v", got.Finalizers, got.Status)
		}
	})
	t.Run("the reconciler's own Update", func(t *testing.T) {
		key := newWidget(t, e.Client)
		p, err := patcher.Fetch(ctx, e.Client, key, &v1.Widget{})
		if err != nil {
			t.Fatal(err)
		}
		p.Object().Finalizers = append(p.Object().Finalizers, "example.com/cleanup")
		if err := e.Client.Update(ctx, p.Object()); err != nil {
			t.Fatal(err)
		}
		p.Object().Status.Phase = "Provisioning"
		if err := p.Flush(ctx); err != nil {
			t.Fatalf("Flush after the reconciler's own finalizer Update: %v", err)
		}
		if got := get(t, e.Client, key); got.Status.Phase != "Provisioning" {
			t.Fatalf("status not written: %+v", got.Status)
		}
	})
}

func TestDeletion(t *testing.T) {
	e := env(t)
	t.Run("flush after delete is NotFound", func(t *testing.T) {
		key := newWidget(t, e.Client)
		p, err := patcher.Fetch(ctx, e.Client, key, &v1.Widget{})
		if err != nil {
			t.Fatal(err)
		}
		if err := e.Client.Delete(ctx, get(t, e.Client, key)); err != nil {
			t.Fatal(err)
		}
		p.Object().Status.Phase = "Late"
		if err := p.Flush(ctx); !apierrors.IsNotFound(err) {
			t.Fatalf("Flush = %v, want NotFound", err)
		}
	})
	t.Run("removing the last finalizer deletes, then Flush is NotFound", func(t *testing.T) {
		key := newWidget(t, e.Client)
		w := get(t, e.Client, key)
		w.Finalizers = []string{"example.com/cleanup"}
		if err := e.Client.Update(ctx, w); err != nil {
			t.Fatal(err)
		}
		if err := e.Client.Delete(ctx, w); err != nil {
			t.Fatal(err)
		}
		p, err := patcher.Fetch(ctx, e.Client, key, &v1.Widget{})
		if err != nil {
			t.Fatal(err)
		}
		p.Object().Status.Phase = "Deleting"
		if err := p.Flush(ctx); err != nil {
			t.Fatalf("status write while deleting: %v", err)
		}
		if _, err := p.RemoveFinalizer(ctx, "example.com/cleanup"); err != nil {
			t.Fatal(err)
		}
		if err := e.Client.Get(ctx, key, &v1.Widget{}); !apierrors.IsNotFound(err) {
			t.Fatalf("object still there after its last finalizer went: %v", err)
		}
		if err := p.Flush(ctx); !apierrors.IsNotFound(err) {
			t.Fatalf("Flush = %v, want NotFound", err)
		}
		if client.IgnoreNotFound(p.Flush(ctx)) != nil {
			t.Fatal("IgnoreNotFound does not clear the error")
		}
	})
}
