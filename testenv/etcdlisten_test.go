package testenv

import (
	"context"
	"errors"
	"io"
	"net"
	"testing"
	"time"

	clientv3 "go.etcd.io/etcd/client/v3"
	"go.etcd.io/etcd/server/v3/embed"
)

// http2Preface is a client's HTTP/2 connection preface and an empty
// SETTINGS frame: a gRPC server answers it with a SETTINGS frame.
const http2Preface = "PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n" + "\x00\x00\x00\x04\x00\x00\x00\x00\x00"

func dialListener(t *testing.T, l *etcdListener) net.Conn {
	t.Helper()
	c, err := net.Dial("tcp", l.url().Host)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = c.Close() })
	if err := c.SetDeadline(time.Now().Add(time.Minute)); err != nil {
		t.Fatal(err)
	}
	return c
}

// servedHTTP2 sends the preface on c and reports whether the answer's
// first frame is a SETTINGS frame.
func servedHTTP2(t *testing.T, c net.Conn) bool {
	t.Helper()
	if _, err := io.WriteString(c, http2Preface); err != nil {
		t.Fatal(err)
	}
	header := make([]byte, 9)
	if _, err := io.ReadFull(c, header); err != nil {
		t.Fatalf("reading the server's first frame: %v", err)
	}
	return header[3] == 0x4
}

// A connection made before etcd is up (kube-apiserver starts first) waits,
// then etcd's gRPC service answers on it; a client of the listener reads
// what it wrote through etcd.
func TestEtcdListenerServesEtcdOnConnectionsMadeBeforeItIsUp(t *testing.T) {
	l, err := newEtcdListener()
	if err != nil {
		t.Fatal(err)
	}
	early := dialListener(t, l)
	shim := newTBShim("x", t, false)
	defer shim.runCleanups()
	_, e, err := startEtcd(options{}, shim)
	if err != nil {
		t.Fatal(err)
	}
	// etcd's own command sets it; embed.NewConfig leaves 0, and with 0
	// every request was printed for a warning the logger dropped.
	if got := e.Server.Cfg.WarningUnaryRequestDuration; got != embed.DefaultWarningUnaryRequestDuration {
		t.Errorf("etcd warns of unary requests over %v, want etcd's default %v", got, embed.DefaultWarningUnaryRequestDuration)
	}
	l.serve(e, nil)
	defer l.close()
	if !servedHTTP2(t, early) {
		t.Fatal("the connection made before etcd was up: no HTTP/2 SETTINGS in answer")
	}

	ctx, cancel := context.WithTimeout(t.Context(), time.Minute)
	defer cancel()
	client, err := clientv3.New(clientv3.Config{Endpoints: []string{l.url().String()}, DialTimeout: time.Minute, Context: ctx})
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = client.Close() }()
	if _, err := client.Put(ctx, "/testenv/k", "v"); err != nil {
		t.Fatalf("Put through the listener: %v", err)
	}
	got, err := client.Get(ctx, "/testenv/k")
	if err != nil {
		t.Fatalf("Get through the listener: %v", err)
	}
	if len(got.Kvs) != 1 || string(got.Kvs[0].Value) != "v" {
		t.Fatalf("Get through the listener: %v, want the value v", got.Kvs)
	}
}

// When etcd did not start, the waiting connections are closed, not left
// hanging, and new ones refused.
func TestEtcdListenerClosesConnectionsWhenEtcdFailed(t *testing.T) {
	l, err := newEtcdListener()
	if err != nil {
		t.Fatal(err)
	}
	defer l.close()
	held := dialListener(t, l)
	l.serve(nil, errors.New("etcd did not start"))
	if n, err := held.Read(make([]byte, 1)); err == nil {
		t.Fatalf("the waiting connection: read %d bytes, want it closed", n)
	}
	if c, err := net.Dial("tcp", l.url().Host); err == nil {
		_ = c.Close()
		t.Fatal("a new connection was accepted after etcd failed")
	}
}

// close ends every connection, waiting or served, and returns: stop must
// not hang on a client that keeps its connection open.
func TestEtcdListenerCloseEndsConnections(t *testing.T) {
	waiting, err := newEtcdListener()
	if err != nil {
		t.Fatal(err)
	}
	held := dialListener(t, waiting)
	served, err := newEtcdListener()
	if err != nil {
		t.Fatal(err)
	}
	shim := newTBShim("x", t, false)
	defer shim.runCleanups()
	_, e, err := startEtcd(options{}, shim)
	if err != nil {
		t.Fatal(err)
	}
	served.serve(e, nil)
	open := dialListener(t, served)
	if !servedHTTP2(t, open) {
		t.Fatal("no HTTP/2 SETTINGS in answer")
	}
	waiting.close()
	served.close()
	for i, c := range []net.Conn{held, open} {
		if err := c.SetReadDeadline(time.Now().Add(10 * time.Second)); err != nil {
			t.Fatal(err)
		}
		var ne net.Error
		if _, err := io.ReadAll(c); errors.As(err, &ne) && ne.Timeout() {
			t.Fatalf("connection %d still open 10 s after close", i)
		}
	}
	if c, err := net.Dial("tcp", served.url().Host); err == nil {
		_ = c.Close()
		t.Fatal("a new connection was accepted after close")
	}
	waiting.serve(e, nil) // etcd up after close: nothing is served
	if c, err := net.Dial("tcp", waiting.url().Host); err == nil {
		_ = c.Close()
		t.Fatal("a new connection was accepted after close and serve")
	}
}
