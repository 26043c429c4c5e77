package e2e

import (
	"context"
	"encoding/hex"
	"encoding/json"
	"testing"

	"k8s.io/apimachinery/pkg/runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/fake"
	"sigs.k8s.io/controller-runtime/pkg/client/interceptor"

	tokenv1 "example.com/goldens/api/token/v1"
	"github.com/statuspatch/statuspatch/patcher"
)

// tokenClient is a fake client with the token kinds that records the
// status writes' bodies.
func tokenClient(t *testing.T, bodies *[][]byte, objs ...client.Object) client.Client {
	t.Helper()
	s := runtime.NewScheme()
	if err := tokenv1.AddToScheme(s); err != nil {
		t.Fatal(err)
	}
	return fake.NewClientBuilder().WithScheme(s).WithObjects(objs...).
		WithStatusSubresource(&tokenv1.Ledger{}, &tokenv1.Queue{}).
		WithInterceptorFuncs(interceptor.Funcs{SubResourcePatch: func(ctx context.Context, c client.Client, sub string, obj client.Object, p client.Patch, opts ...client.SubResourcePatchOption) error {
			b, err := p.Data(obj)
			if err != nil {
				return err
			}
			*bodies = append(*bodies, b)
			return c.SubResource(sub).Patch(ctx, obj, p, opts...)
		}}).
		Build()
}

// sentToken is the status token a write body carries.
func sentToken(t *testing.T, body []byte, field string) string {
	t.Helper()
	var m struct {
		Status map[string]any `json:"status"`
	}
	if err := json.Unmarshal(body, &m); err != nil {
		t.Fatalf("body %s: %v", body, err)
	}
	tok, _ := m.Status[field].(string)
	if b, err := hex.DecodeString(tok); err != nil || len(b) != 16 {
		t.Fatalf("write %s carries %q at status.%s, want 128 bits as hex", body, tok, field)
	}
	return tok
}

// TestWriteTokenInEveryWrite: +statuspatch:writeToken puts a fresh token in
// every write, in merge and apply mode; a Flush with no change sends
// nothing; the object holds the token after the write.
func TestWriteTokenInEveryWrite(t *testing.T) {
	var bodies [][]byte
	c := tokenClient(t, &bodies, &tokenv1.Ledger{ObjectMeta: meta("l", 1)})
	p, err := tokenv1.FetchLedgerStatusPatcher(ctx, c, client.ObjectKey{Namespace: "default", Name: "l"})
	if err != nil {
		t.Fatal(err)
	}
	if err := p.Flush(ctx); err != nil || len(bodies) != 0 {
		t.Fatalf("no-op Flush: err %v, %d writes, want none", err, len(bodies))
	}
	if p.HasChanges() {
		t.Fatal("HasChanges with no change")
	}
	seen := map[string]bool{}
	for i := range 3 {
		p.Status().Count++
		if err := p.Flush(ctx); err != nil {
			t.Fatal(err)
		}
		if len(bodies) != i+1 {
			t.Fatalf("after %d changed Flushes: %d writes", i+1, len(bodies))
		}
		tok := sentToken(t, bodies[i], "writeToken")
		if seen[tok] || p.Status().WriteToken != tok {
			t.Fatalf("write %d: token %q (seen before: %v), object holds %q", i, tok, seen[tok], p.Status().WriteToken)
		}
		seen[tok] = true
		if err := p.Flush(ctx); err != nil || len(bodies) != i+1 {
			t.Fatalf("no-op Flush after a write: err %v, %d writes, want %d", err, len(bodies), i+1)
		}
	}
	if err := p.Retry(ctx, func(l *tokenv1.Ledger) error { l.Status.Taken = append(l.Status.Taken, "job-1"); return nil }); err != nil {
		t.Fatal(err)
	}
	if len(bodies) != 4 || seen[sentToken(t, bodies[3], "writeToken")] {
		t.Fatalf("Retry: %d writes, want 4 with a fresh token", len(bodies))
	}
}

// TestWriteTokenApplyModePointerStatus: the pointer status kind in apply
// mode builds with the token and a no-op Flush sends nothing (the apply
// itself needs managedFields, which the fake client does not keep: the
// real server's tests write with the token in apply mode).
func TestWriteTokenApplyModePointerStatus(t *testing.T) {
	var bodies [][]byte
	c := tokenClient(t, &bodies, &tokenv1.Queue{ObjectMeta: meta("q", 1)})
	p, err := tokenv1.FetchQueueStatusPatcher(ctx, c, client.ObjectKey{Namespace: "default", Name: "q"}, patcher.WithFieldOwner("e2e"))
	if err != nil {
		t.Fatal(err)
	}
	if err := p.Flush(ctx); err != nil || len(bodies) != 0 {
		t.Fatalf("no-op Flush: err %v, %d writes, want none", err, len(bodies))
	}
	if p.Object().Status != nil {
		t.Fatalf("the token allocated the status: %+v", p.Object().Status)
	}
}
