package patcherit_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
	"syscall"
	"testing"

	"k8s.io/client-go/rest"
	"sigs.k8s.io/controller-runtime/pkg/client"

	v1 "github.com/statuspatch/statuspatch/internal/testapi/v1"
	"github.com/statuspatch/statuspatch/testenv"
)

// The wire of the WithNonStatusChangesUnsent schedules
// (unsent_schedule_test.go): every request the patcher's client sends and
// the server's answer, recorded at the transport, with the object in
// memory when it was sent; and a hook that runs another writer's write
// just before one of the patcher's requests (the worst moment, made
// certain: no sleeps).

// exchange is one request of the patcher's client and the server's answer.
type exchange struct {
	Method, Path string
	Body         []byte
	Code         int
	Answer       []byte
	ObjRV        string          // the resourceVersion in memory when sent
	Status       v1.WidgetStatus // the status in memory when sent
	Lost         bool            // the answer was recorded, then lost: the client got a reset
	DryRun       bool            // a server-side dry run: nothing stored
}

func (x exchange) statusPatch() bool {
	return x.Method == http.MethodPatch && strings.HasSuffix(x.Path, "/status")
}

// unsentWire records the patcher client's exchanges; hook, when set, runs
// once before the first request that match accepts, in the caller's
// goroutine.
type unsentWire struct {
	mu    sync.Mutex
	log   []exchange
	obj   *v1.Widget // the patcher's object
	match func(method, path string) bool
	hook  func()
	// lose, when set, loses the answer of the next status PATCH after the
	// server applied it (a reset), then runs after (another writer's
	// write before the patcher reads back), when set.
	lose  bool
	after func()
}

func (u *unsentWire) wrap(rt http.RoundTripper) http.RoundTripper {
	return roundTripFunc(func(req *http.Request) (*http.Response, error) {
		var body []byte
		if req.Body != nil {
			body, _ = io.ReadAll(req.Body)
			req.Body = io.NopCloser(bytes.NewReader(body))
		}
		u.mu.Lock()
		hook := u.hook
		if hook != nil && u.match(req.Method, req.URL.Path) {
			u.hook = nil
		} else {
			hook = nil
		}
		x := exchange{Method: req.Method, Path: req.URL.Path, Body: body, DryRun: dryRun(req)}
		if u.obj != nil {
			x.ObjRV, x.Status = u.obj.ResourceVersion, *u.obj.Status.DeepCopy()
		}
		u.mu.Unlock()
		if hook != nil {
			hook()
		}
		resp, err := rt.RoundTrip(req)
		if err != nil {
			return resp, err
		}
		x.Code = resp.StatusCode
		x.Answer, _ = io.ReadAll(resp.Body)
		_ = resp.Body.Close()
		resp.Body = io.NopCloser(bytes.NewReader(x.Answer))
		u.mu.Lock()
		x.Lost = u.lose && x.statusPatch()
		after := u.after
		if x.Lost {
			u.lose, u.after = false, nil
		}
		u.log = append(u.log, x)
		u.mu.Unlock()
		if !x.Lost {
			return resp, nil
		}
		if after != nil {
			after()
		}
		return nil, &netOpError{err: syscall.ECONNRESET}
	})
}

// arm sets the hook: f runs before the next request match accepts.
func (u *unsentWire) arm(match func(method, path string) bool, f func()) {
	u.mu.Lock()
	defer u.mu.Unlock()
	u.match, u.hook = match, f
}

// armLoss loses the answer of the next status PATCH, then runs after
// (nil: nothing).
func (u *unsentWire) armLoss(after func()) {
	u.mu.Lock()
	defer u.mu.Unlock()
	u.lose, u.after = true, after
}

// since returns the exchanges from index i on, and disarms the hook and
// the loss.
func (u *unsentWire) since(i int) []exchange {
	u.mu.Lock()
	defer u.mu.Unlock()
	u.hook, u.lose, u.after = nil, false, nil
	return append([]exchange(nil), u.log[i:]...)
}

func (u *unsentWire) mark(obj *v1.Widget) int {
	u.mu.Lock()
	defer u.mu.Unlock()
	u.obj = obj
	return len(u.log)
}

// unsentClient is a client on e whose exchanges u records.
func unsentClient(t *testing.T, e *testenv.Env, u *unsentWire) client.Client {
	t.Helper()
	cfg := rest.CopyConfig(e.Config)
	cfg.Wrap(u.wrap)
	c, err := client.New(cfg, client.Options{Scheme: e.Scheme, Mapper: e.Mapper})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// checkSentOnlyStatus returns why x sent something else than the status
// under the lock of the object in memory (nil when it did not): a status
// PATCH whose body holds metadata.resourceVersion, equal to the object's,
// and the status; a main-resource PATCH only when finalizers is true, then
// holding only the resourceVersion and the finalizers; GETs.
func checkSentOnlyStatus(x exchange, finalizers bool) error {
	switch {
	case x.Method == http.MethodGet:
		return nil
	case x.DryRun && x.Method == http.MethodPatch:
		return nil // the settle's probe of its field manager (ownmanager.go): nothing stored
	case x.Method != http.MethodPatch:
		return fmt.Errorf("%s %s", x.Method, x.Path)
	}
	if bytes.HasPrefix(bytes.TrimSpace(x.Body), []byte("[")) { // a JSON Patch
		var ops []struct {
			Op, Path string
			Value    json.RawMessage
		}
		if err := json.Unmarshal(x.Body, &ops); err != nil || len(ops) == 0 || !x.statusPatch() {
			return fmt.Errorf("JSON patch %s to %s", x.Body, x.Path)
		}
		if ops[0].Path != "/metadata/resourceVersion" || string(ops[0].Value) != fmt.Sprintf("%q", x.ObjRV) {
			return fmt.Errorf("JSON patch %s not locked at the object's resourceVersion %s", x.Body, x.ObjRV)
		}
		for _, op := range ops[1:] {
			if op.Path != "/status" && !strings.HasPrefix(op.Path, "/status/") {
				return fmt.Errorf("JSON patch %s writes %s", x.Body, op.Path)
			}
		}
		return nil
	}
	var body map[string]json.RawMessage
	if err := json.Unmarshal(x.Body, &body); err != nil {
		return fmt.Errorf("body %s: %w", x.Body, err)
	}
	var md map[string]json.RawMessage
	if err := json.Unmarshal(body["metadata"], &md); err != nil || string(md["resourceVersion"]) != fmt.Sprintf("%q", x.ObjRV) {
		return fmt.Errorf("%s not locked at the object's resourceVersion %s", x.Body, x.ObjRV)
	}
	allowed := map[string]bool{"resourceVersion": true}
	top := "status"
	if _, applied := body["apiVersion"]; applied && x.statusPatch() {
		// A server-side apply names the object.
		allowed["name"], allowed["namespace"] = true, true
		delete(body, "apiVersion")
		delete(body, "kind")
	}
	if !x.statusPatch() {
		if !finalizers {
			return fmt.Errorf("a main-resource PATCH %s", x.Body)
		}
		allowed["finalizers"], top = true, ""
	}
	for k := range md {
		if !allowed[k] {
			return fmt.Errorf("%s sends metadata.%s", x.Body, k)
		}
	}
	for k := range body {
		if k != "metadata" && k != top {
			return fmt.Errorf("%s sends %s", x.Body, k)
		}
	}
	return nil
}
