package patcherit_test

import (
	"fmt"
	"net/http"
	"strings"
	"testing"

	v1 "github.com/statuspatch/statuspatch/internal/testapi/v1"
	"github.com/statuspatch/statuspatch/patcher"
)

// withToken is the option of the tests that write with the write token
// (issue 71): status.writeToken, the generated patcher's
// +statuspatch:writeToken.
var withToken = patcher.WithWriteToken(func(w *v1.Widget) *string { return &w.Status.WriteToken })

// With the token an ordinary Flush is still one PATCH (the token in its
// body, beside the change), and a no-op Flush sends nothing.
func TestIssue71TokenFlushIsOnePatch(t *testing.T) {
	e := env(t)
	c, rec := countingClient(t, e)
	key := newWidget(t, e.Client)
	p, err := patcher.Fetch(ctx, c, key, &v1.Widget{}, withToken)
	if err != nil {
		t.Fatal(err)
	}
	before := len(rec.requests())
	for range 3 {
		if err := p.Flush(ctx); err != nil {
			t.Fatal(err)
		}
	}
	if n := len(rec.requests()) - before; n != 0 {
		t.Fatalf("no-op Flush with the token sent %d requests: %+v", n, rec.requests()[before:])
	}
	tokens := map[string]bool{}
	for i := range 2 {
		before = len(rec.requests())
		p.Object().Status.Phase = fmt.Sprintf("Ready-%d", i)
		if err := p.Flush(ctx); err != nil {
			t.Fatal(err)
		}
		reqs := rec.requests()[before:]
		if len(reqs) != 1 || reqs[0].Method != http.MethodPatch || !strings.HasSuffix(reqs[0].Path, "/widgets/"+key.Name+"/status") {
			t.Fatalf("requests = %+v, want one PATCH to the status subresource", reqs)
		}
		tok := p.Object().Status.WriteToken
		if len(tok) != 32 || tokens[tok] || !strings.Contains(string(reqs[0].Body), `"writeToken":"`+tok+`"`) {
			t.Fatalf("write %d: body %s, object's token %q (used before: %v)", i, reqs[0].Body, tok, tokens[tok])
		}
		tokens[tok] = true
		before = len(rec.requests())
		if err := p.Flush(ctx); err != nil || len(rec.requests()) != before {
			t.Fatalf("no-op Flush after a write: %v, %d requests", err, len(rec.requests())-before)
		}
	}
}

// An apply without the lock carries no token: "stored once" needs the
// lock, and its resend putting the token back after another writer's
// would be a write of its own (the oracle found it: stored twice).
func TestIssue71TokenNotSentWithoutTheLock(t *testing.T) {
	e := env(t)
	c, rec := countingClient(t, e)
	key := newWidget(t, e.Client)
	p, err := patcher.Fetch(ctx, c, key, &v1.Widget{}, withToken, patcher.WithFieldOwner("heartbeat"), patcher.WithWriteMode(patcher.WriteApplyWithoutLock))
	if err != nil {
		t.Fatal(err)
	}
	before := len(rec.requests())
	p.Object().Status.Phase = "Alive"
	if err := p.Flush(ctx); err != nil {
		t.Fatal(err)
	}
	for _, r := range rec.requests()[before:] {
		if strings.Contains(string(r.Body), "writeToken") {
			t.Fatalf("%s %s carries a token: %s", r.Method, r.Path, r.Body)
		}
	}
	if tok := p.Object().Status.WriteToken; tok != "" {
		t.Fatalf("the object holds token %q", tok)
	}
}
