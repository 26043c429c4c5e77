package testenv

import (
	"fmt"
	"io"
	"net"
	"net/url"
	"sync"
)

// etcdForward is the address the full API's kube-apiserver is given for
// etcd before the embedded etcd is up, so that the two start at once
// instead of one after the other: it listens at once, and each connection
// waits until etcd's client address is known (set), then is copied both
// ways. A connection made after etcd failed to start is closed.
type etcdForward struct {
	ln    net.Listener
	ready chan struct{} // closed by set
	done  chan struct{} // closed by close
	addr  string        // etcd's host:port, once ready with err nil
	err   error         // why etcd did not start, once ready

	mu     sync.Mutex
	closed bool
	conns  map[net.Conn]struct{}
	wg     sync.WaitGroup
}

func newEtcdForward() (*etcdForward, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, fmt.Errorf("testenv: listening for kube-apiserver's etcd connections: %w", err)
	}
	f := &etcdForward{ln: ln, ready: make(chan struct{}), done: make(chan struct{}), conns: map[net.Conn]struct{}{}}
	f.wg.Add(1)
	go f.accept()
	return f, nil
}

// url is the etcd URL for kube-apiserver's --etcd-servers.
func (f *etcdForward) url() *url.URL {
	return &url.URL{Scheme: "http", Host: f.ln.Addr().String()}
}

// set is called once: with etcd's client URL, or with the error etcd did
// not start with.
func (f *etcdForward) set(etcd *url.URL, err error) {
	if err == nil {
		f.addr = etcd.Host
	}
	f.err = err
	close(f.ready)
}

// close stops listening, closes every connection and waits for the copies.
func (f *etcdForward) close() {
	f.mu.Lock()
	if !f.closed {
		f.closed = true
		close(f.done)
		_ = f.ln.Close()
		for c := range f.conns {
			_ = c.Close()
		}
	}
	f.mu.Unlock()
	f.wg.Wait()
}

func (f *etcdForward) accept() {
	defer f.wg.Done()
	for {
		c, err := f.ln.Accept()
		if err != nil {
			return
		}
		if !f.track(c) {
			return
		}
		f.wg.Add(1)
		go f.pipe(c)
	}
}

// track registers c to be closed by close; false (c closed) once closed.
func (f *etcdForward) track(c net.Conn) bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.closed {
		_ = c.Close()
		return false
	}
	f.conns[c] = struct{}{}
	return true
}

func (f *etcdForward) untrack(c net.Conn) {
	f.mu.Lock()
	delete(f.conns, c)
	f.mu.Unlock()
	_ = c.Close()
}

func (f *etcdForward) pipe(c net.Conn) {
	defer f.wg.Done()
	defer f.untrack(c)
	select {
	case <-f.ready:
	case <-f.done:
		return
	}
	if f.err != nil {
		return
	}
	e, err := net.Dial("tcp", f.addr)
	if err != nil {
		return
	}
	if !f.track(e) {
		return
	}
	defer f.untrack(e)
	copied := make(chan struct{})
	go func() {
		defer close(copied)
		_, _ = io.Copy(e, c)
		_ = e.Close()
		_ = c.Close()
	}()
	_, _ = io.Copy(c, e)
	_ = c.Close()
	_ = e.Close()
	<-copied
}
