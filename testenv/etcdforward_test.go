package testenv

import (
	"bufio"
	"errors"
	"io"
	"net"
	"net/url"
	"testing"
	"time"
)

// echoServer answers each line with "echo: " and the line.
func echoServer(t *testing.T) *url.URL {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = ln.Close() })
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			go func() {
				defer c.Close()
				r := bufio.NewReader(c)
				for {
					line, err := r.ReadString('\n')
					if err != nil {
						return
					}
					if _, err := io.WriteString(c, "echo: "+line); err != nil {
						return
					}
				}
			}()
		}
	}()
	return &url.URL{Scheme: "http", Host: ln.Addr().String()}
}

func dialForward(t *testing.T, f *etcdForward) net.Conn {
	t.Helper()
	c, err := net.Dial("tcp", f.url().Host)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = c.Close() })
	if err := c.SetDeadline(time.Now().Add(time.Minute)); err != nil {
		t.Fatal(err)
	}
	return c
}

// A connection made before etcd is up (kube-apiserver starts first) is
// held, then carried to etcd once its address is set, both ways.
func TestEtcdForwardHoldsConnectionsUntilEtcdIsUp(t *testing.T) {
	f, err := newEtcdForward()
	if err != nil {
		t.Fatal(err)
	}
	defer f.close()
	c := dialForward(t, f)
	if _, err := io.WriteString(c, "first\n"); err != nil {
		t.Fatal(err)
	}
	f.set(echoServer(t), nil)
	r := bufio.NewReader(c)
	for _, want := range []string{"first", "second"} {
		if want == "second" {
			if _, err := io.WriteString(c, "second\n"); err != nil {
				t.Fatal(err)
			}
		}
		got, err := r.ReadString('\n')
		if err != nil {
			t.Fatalf("reading the answer to %q through the forward: %v", want, err)
		}
		if got != "echo: "+want+"\n" {
			t.Fatalf("got %q through the forward, want %q", got, "echo: "+want+"\n")
		}
	}
	// A connection made after etcd is up goes straight through.
	c2 := dialForward(t, f)
	if _, err := io.WriteString(c2, "third\n"); err != nil {
		t.Fatal(err)
	}
	if got, err := bufio.NewReader(c2).ReadString('\n'); err != nil || got != "echo: third\n" {
		t.Fatalf("second connection: got %q, %v", got, err)
	}
}

// When etcd did not start, held connections and new ones are closed, not
// left hanging.
func TestEtcdForwardClosesConnectionsWhenEtcdFailed(t *testing.T) {
	f, err := newEtcdForward()
	if err != nil {
		t.Fatal(err)
	}
	defer f.close()
	held := dialForward(t, f)
	f.set(nil, errors.New("etcd did not start"))
	for i, c := range []net.Conn{held, dialForward(t, f)} {
		if n, err := c.Read(make([]byte, 1)); err == nil {
			t.Fatalf("connection %d: read %d bytes, want it closed", i, n)
		}
	}
}

// close ends every connection, held or carried, and returns: stop must not
// hang on a client that keeps its connection open.
func TestEtcdForwardCloseEndsConnections(t *testing.T) {
	f, err := newEtcdForward()
	if err != nil {
		t.Fatal(err)
	}
	held := dialForward(t, f)
	f2, err := newEtcdForward()
	if err != nil {
		t.Fatal(err)
	}
	f2.set(echoServer(t), nil)
	carried := dialForward(t, f2)
	if _, err := io.WriteString(carried, "x\n"); err != nil {
		t.Fatal(err)
	}
	if _, err := bufio.NewReader(carried).ReadString('\n'); err != nil {
		t.Fatal(err)
	}
	f.close()
	f2.close()
	for i, c := range []net.Conn{held, carried} {
		if n, err := c.Read(make([]byte, 1)); err == nil {
			t.Fatalf("connection %d: read %d bytes after close, want it closed", i, n)
		}
	}
	if _, err := net.Dial("tcp", f.url().Host); err == nil {
		t.Fatal("the forward still accepts connections after close")
	}
}
