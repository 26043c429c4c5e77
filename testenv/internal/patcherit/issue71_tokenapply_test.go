package patcherit_test

import (
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"

	"sigs.k8s.io/controller-runtime/pkg/client"

	v1 "github.com/statuspatch/statuspatch/internal/testapi/v1"
	"github.com/statuspatch/statuspatch/patcher"
	"github.com/statuspatch/statuspatch/testenv"
)

// ApplyStatus's locked apply carries the write token like every other
// write: one PATCH with a fresh token beside the status given, none for
// the same status again (the token this manager owns is no change), and
// a lost answer settled by it. Without the lock it carries none.
//
// Before: ApplyStatus sent no token, and the trap below (two controllers
// take job-1 from one base; theirs stored, ours reset on the way) was
// ErrWriteOutcomeUnknown, as a removal stamps no managedFields entry.
func TestIssue71TokenApplyStatus(t *testing.T) {
	e := env(t)
	t.Run("wire", func(t *testing.T) {
		c, rec := countingClient(t, e)
		key := newWidget(t, e.Client)
		p, err := patcher.Fetch(ctx, c, key, &v1.Widget{}, withToken, patcher.WithFieldOwner("apply-controller"), patcher.WithWriteMode(patcher.WriteApply))
		if err != nil {
			t.Fatal(err)
		}
		tokens := map[string]bool{}
		for i, phase := range []string{"Running", "Running", "Done"} {
			before := len(rec.requests())
			if err := p.ApplyStatus(map[string]any{"phase": phase}); err != nil {
				t.Fatal(err)
			}
			if err := p.Flush(ctx); err != nil {
				t.Fatal(err)
			}
			reqs := rec.requests()[before:]
			if i == 1 {
				if len(reqs) != 0 {
					t.Fatalf("the same ApplyStatus again sent %d requests: %+v", len(reqs), reqs)
				}
				continue
			}
			if len(reqs) != 1 || reqs[0].Method != http.MethodPatch || !strings.HasSuffix(reqs[0].Path, "/widgets/"+key.Name+"/status") {
				t.Fatalf("ApplyStatus %d: requests = %+v, want one PATCH to the status subresource", i, reqs)
			}
			tok := p.Object().Status.WriteToken
			if len(tok) != 32 || tokens[tok] || !strings.Contains(string(reqs[0].Body), `"writeToken":"`+tok+`"`) {
				t.Fatalf("ApplyStatus %d: body %s, object's token %q (used before: %v)", i, reqs[0].Body, tok, tokens[tok])
			}
			tokens[tok] = true
		}
		if got := get(t, e.Client, key).Status; got.Phase != "Done" || !tokens[got.WriteToken] {
			t.Fatalf("server holds phase %q, token %q", got.Phase, got.WriteToken)
		}
	})
	t.Run("without the lock", func(t *testing.T) {
		c, rec := countingClient(t, e)
		key := newWidget(t, e.Client)
		p, err := patcher.Fetch(ctx, c, key, &v1.Widget{}, withToken, patcher.WithFieldOwner("heartbeat"), patcher.WithWriteMode(patcher.WriteApplyWithoutLock))
		if err != nil {
			t.Fatal(err)
		}
		before := len(rec.requests())
		if err := p.ApplyStatus(map[string]any{"phase": "Alive"}); err != nil {
			t.Fatal(err)
		}
		if err := p.Flush(ctx); err != nil {
			t.Fatal(err)
		}
		for _, r := range rec.requests()[before:] {
			if strings.Contains(string(r.Body), "writeToken") {
				t.Fatalf("%s %s carries a token: %s", r.Method, r.Path, r.Body)
			}
		}
		if tok := get(t, e.Client, key).Status.WriteToken; tok != "" {
			t.Fatalf("the server holds token %q", tok)
		}
	})
	for _, rm := range removals {
		for _, retry := range []bool{false, true} {
			t.Run(fmt.Sprintf("removal from one base/%s/%s", rm.name, retryName(retry)), func(t *testing.T) {
				key := newWidget(t, e.Client)
				fillQueue(t, e.Client, key, rm, "queue-controller", patcher.WriteApply)
				other := ownClient(t)
				ft := &faultyTransport{plan: []plannedFault{{kind: faultForeignReset}}}
				ft.foreign = func() error { _, err := lockedTake(other, key, rm); return err }
				taken, runs, err := applyTake(t, e, key, ft, rm, retry)
				got := rm.keys(get(t, e.Client, key))
				wantExact(t, err, false, retry, runs)
				if retry && (taken != "job-2" || !slices.Equal(got, []string{"job-3"})) {
					t.Fatalf("Retry took %s; server holds %v, want [job-3]", taken, got)
				}
			})
			t.Run(fmt.Sprintf("stored removal/%s/%s", rm.name, retryName(retry)), func(t *testing.T) {
				key := newWidget(t, e.Client)
				fillQueue(t, e.Client, key, rm, "queue-controller", patcher.WriteApply)
				writeV1(t, ownClient(t), key, "phase-controller", setPhase("Busy"))
				ft := &faultyTransport{plan: []plannedFault{{kind: faultReset, after: true}}}
				_, runs, err := applyTake(t, e, key, ft, rm, retry)
				if got := rm.keys(get(t, e.Client, key)); !slices.Equal(got, []string{"job-2", "job-3"}) {
					t.Fatalf("= %v after %d runs: server holds %v; want [job-2 job-3]", err, runs, got)
				}
				wantExact(t, err, true, retry, runs)
			})
		}
	}
}

// applyTake takes rm's first item through ApplyStatus with the token
// (WriteApply, owner queue-controller) through ft, by Flush or Retry.
func applyTake(t *testing.T, e *testenv.Env, key client.ObjectKey, ft *faultyTransport, rm removal, retry bool) (taken string, runs int, err error) {
	t.Helper()
	c := faultyClient(t, e, ft)
	p, err := patcher.Fetch(ctx, c, key, &v1.Widget{}, append(tokenOptions(c, "queue-controller"), patcher.WithWriteMode(patcher.WriteApply))...)
	if err != nil {
		t.Fatal(err)
	}
	mutate := func(w *v1.Widget) error {
		runs++
		next := w.DeepCopy()
		taken = rm.take(next)
		return p.ApplyStatus(appliedRemoval(rm, next))
	}
	if retry {
		return taken, runs, p.Retry(ctx, mutate)
	}
	if err := mutate(p.Object()); err != nil {
		return taken, runs, err
	}
	return taken, runs, p.Flush(ctx)
}

// appliedRemoval is the status ApplyStatus gives for rm's decision made on
// w: the list rm takes from, whole.
func appliedRemoval(rm removal, w *v1.Widget) map[string]any {
	if rm.name == "conditions" {
		return map[string]any{"conditions": w.Status.Conditions}
	}
	return map[string]any{"members": w.Status.Members}
}
