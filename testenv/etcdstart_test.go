package testenv

import (
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	etcd3testing "k8s.io/apiserver/pkg/storage/etcd3/testing"
	"k8s.io/apiserver/pkg/storage/storagebackend"
)

const boundElsewhere = "listen tcp 127.0.0.1:38381: bind: address already in use"

// A start of the embedded etcd whose port another process took in between
// (the failure CI met: the helper frees the port it picked before etcd
// binds it) is undone and made again on new ports; the real etcd of the
// second start then serves, and the test never sees the first failure.
func TestEmbeddedEtcdStartRetriesALostPort(t *testing.T) {
	parent := &recordingTB{TB: t}
	shim := newTBShim("x", parent, false)
	before := 0
	shim.Cleanup(func() { before++ })
	calls, undone := 0, 0
	storage, err := startEtcdWith(shim, func(tb testing.TB) (*etcd3testing.EtcdTestServer, *storagebackend.Config) {
		calls++
		if calls == 1 {
			tb.Cleanup(func() { undone++ })
			tb.Fatal(boundElsewhere)
		}
		if undone != 1 {
			t.Errorf("start %d began with the failed start's cleanup run %d times, want 1", calls, undone)
		}
		return etcd3testing.NewUnsecuredEtcd3TestClientServer(tb)
	})
	if err != nil {
		t.Fatalf("startEtcdWith: %v", err)
	}
	if calls != 2 || undone != 1 || before != 0 {
		t.Fatalf("starts %d, the failed one's cleanups run %d times, the earlier cleanup %d times: want 2, 1, 0", calls, undone, before)
	}
	if shim.Failed() || len(shim.errors()) != 0 {
		t.Fatalf("the undone start's failure is still recorded: failed %v, errors %q", shim.Failed(), shim.errors())
	}
	if len(storage.Transport.ServerList) == 0 {
		t.Fatal("no client URL")
	}
	if h := etcdHealth(storage.Transport.ServerList[0]); !strings.Contains(h, `"health":"true"`) {
		t.Fatalf("the second start's etcd at %s: /health says %q", storage.Transport.ServerList[0], h)
	}
	if got := strings.Join(parent.lines, "|"); !strings.Contains(got, "start 1 of at most 5 lost a port to another process ("+boundElsewhere+")") {
		t.Fatalf("the parent test's log says %q", got)
	}
	shim.runCleanups()
	if before != 1 || undone != 1 {
		t.Fatalf("after teardown: the earlier cleanup run %d times, the failed start's %d: want 1, 1", before, undone)
	}
	if h := etcdHealth(storage.Transport.ServerList[0]); strings.Contains(h, `"health":"true"`) {
		t.Fatalf("etcd still serves after teardown (%q): its cleanups did not run", h)
	}
}

// etcdHealth is etcd's /health answer at its client URL, or the error's text.
func etcdHealth(clientURL string) string {
	c := &http.Client{Timeout: 10 * time.Second}
	resp, err := c.Get(clientURL + "/health")
	if err != nil {
		return err.Error()
	}
	defer func() { _ = resp.Body.Close() }()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		return err.Error()
	}
	return strings.TrimSpace(string(b))
}

// Any other failure ends the start at once, with every cleanup run.
func TestEmbeddedEtcdStartEndsOnAnotherFailure(t *testing.T) {
	shim := newTBShim("x", nil, false)
	before, undone, calls := 0, 0, 0
	shim.Cleanup(func() { before++ })
	_, err := startEtcdWith(shim, func(tb testing.TB) (*etcd3testing.EtcdTestServer, *storagebackend.Config) {
		calls++
		tb.Cleanup(func() { undone++ })
		tb.Fatal("server took too long to start")
		return nil, nil
	})
	if err == nil || err.Error() != "testenv: starting embedded etcd: server took too long to start" {
		t.Fatalf("err = %v", err)
	}
	if calls != 1 || undone != 1 || before != 1 {
		t.Fatalf("starts %d, their cleanups run %d times, the earlier cleanup %d times: want 1, 1, 1", calls, undone, before)
	}
}

// Ports lost at every start: it gives up after etcdStartAttempts, saying so.
func TestEmbeddedEtcdStartGivesUpAfterItsAttempts(t *testing.T) {
	shim := newTBShim("x", nil, false)
	undone, calls := 0, 0
	_, err := startEtcdWith(shim, func(tb testing.TB) (*etcd3testing.EtcdTestServer, *storagebackend.Config) {
		calls++
		tb.Cleanup(func() { undone++ })
		tb.Fatal(boundElsewhere)
		return nil, nil
	})
	want := "testenv: starting embedded etcd: " + boundElsewhere + " (start 5 of 5; the ones before lost a port to another process)"
	if err == nil || err.Error() != want {
		t.Fatalf("err = %v, want %s", err, want)
	}
	if calls != etcdStartAttempts || undone != etcdStartAttempts {
		t.Fatalf("starts %d, their cleanups run %d times: want %d each", calls, undone, etcdStartAttempts)
	}
}

// undo runs only the cleanups registered since the mark, last first, and
// forgets only the failures recorded since.
func TestTBShimUndo(t *testing.T) {
	s := newTBShim("x", nil, false)
	var order []string
	s.Cleanup(func() { order = append(order, "kept") })
	s.record("earlier")
	m := s.mark()
	s.Cleanup(func() { order = append(order, "a") })
	s.Cleanup(func() { order = append(order, "b") })
	s.record("later")
	if got := s.errorsSince(m); len(got) != 1 || got[0] != "later" {
		t.Fatalf("errorsSince = %q", got)
	}
	s.undo(m)
	if strings.Join(order, ",") != "b,a" || strings.Join(s.errors(), ";") != "earlier" || !s.Failed() {
		t.Fatalf("after undo: cleanups run %v, errors %q, failed %v", order, s.errors(), s.Failed())
	}
	s.runCleanups()
	if strings.Join(order, ",") != "b,a,kept" {
		t.Fatalf("cleanups run %v", order)
	}
}
