package testenv

import (
	"fmt"
	"net"
	"net/url"
	"os"
	"sync"
	"testing"
	"time"

	"go.etcd.io/etcd/server/v3/embed"
	"go.etcd.io/etcd/server/v3/etcdserver/api/v3rpc"
	"google.golang.org/grpc"
	"google.golang.org/grpc/keepalive"
	"k8s.io/apiserver/pkg/storage/etcd3/testserver"
)

// etcdListener is the address the full API's kube-apiserver is given for
// etcd before the embedded etcd is up, so that the two start at once
// instead of one after the other. It listens at once; the connections
// kube-apiserver makes before etcd is up wait in the listen queue, and
// once etcd is up its gRPC service is served on this listener itself
// (serve), as etcd serves its own client URL, so kube-apiserver talks to
// etcd without a process-side copy between them. (It was a forward that
// copied each connection to etcd's client URL: 7.4% of the test process's
// CPU in a RabbitMQ search, docs/benchmarks.md.) If etcd did not start,
// the listener and every connection waiting on it are closed.
type etcdListener struct {
	ln    net.Listener
	ready chan struct{} // closed by serve
	err   error         // why etcd did not start, once ready

	mu     sync.Mutex
	closed bool
	gs     *grpc.Server  // once served
	served chan struct{} // closed when gs.Serve returns
}

func newEtcdListener() (*etcdListener, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, fmt.Errorf("testenv: listening for kube-apiserver's etcd connections: %w", err)
	}
	return &etcdListener{ln: ln, ready: make(chan struct{}), served: make(chan struct{})}, nil
}

// url is the etcd URL for kube-apiserver's --etcd-servers.
func (l *etcdListener) url() *url.URL {
	return &url.URL{Scheme: "http", Host: l.ln.Addr().String()}
}

// serve is called once: with the started etcd, whose gRPC service it then
// serves on the listener, or with the error etcd did not start with.
func (l *etcdListener) serve(e *embed.Etcd, err error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	defer close(l.ready)
	l.err = err
	if err != nil || l.closed {
		_ = l.ln.Close()
		close(l.served)
		return
	}
	l.gs = etcdGRPCServer(e)
	go func() {
		defer close(l.served)
		// Serve returns nil after close's Stop; an error is a fault of
		// the listener (an Accept gRPC does not retry): kube-apiserver
		// has lost etcd, and its requests will time out. Say why.
		if err := l.gs.Serve(l.ln); err != nil {
			fmt.Fprintf(os.Stderr, "testenv: serving etcd to kube-apiserver at %s stopped: %v\n", l.ln.Addr(), err)
		}
	}()
}

// etcdGRPCServer is the gRPC server etcd's own client URL has without TLS
// (embed's serveClients and serveCtx.serve): etcd's services, its
// interceptors, limits and keepalive policy. The election and lock
// services, which kube-apiserver does not call, are left out.
func etcdGRPCServer(e *embed.Etcd) *grpc.Server {
	cfg := e.Config()
	var opts []grpc.ServerOption
	if cfg.GRPCKeepAliveMinTime > 0 {
		opts = append(opts, grpc.KeepaliveEnforcementPolicy(keepalive.EnforcementPolicy{MinTime: cfg.GRPCKeepAliveMinTime}))
	}
	if cfg.GRPCKeepAliveInterval > 0 && cfg.GRPCKeepAliveTimeout > 0 {
		opts = append(opts, grpc.KeepaliveParams(keepalive.ServerParameters{Time: cfg.GRPCKeepAliveInterval, Timeout: cfg.GRPCKeepAliveTimeout}))
	}
	return v3rpc.Server(e.Server, nil, nil, append(opts, cfg.GRPCAdditionalServerOptions...)...)
}

// close stops listening and serving, closes every connection and waits
// for the server to return. Call it before etcd stops.
func (l *etcdListener) close() {
	l.mu.Lock()
	if !l.closed {
		l.closed = true
		_ = l.ln.Close()
		if l.gs != nil {
			l.gs.Stop()
		}
	}
	gs := l.gs
	l.mu.Unlock()
	if gs != nil {
		<-l.served
	}
}

// etcdStartLock serialises runEtcd's starts in this process, as
// testserver.RunEtcd's own lock does: between the pick of its free ports
// and their bind, another start here must not pick them.
var etcdStartLock sync.Mutex

// runEtcd is k8s.io/apiserver's testserver.RunEtcd (its test config: no
// fsync, free ports, a temporary directory, only errors logged) without
// its client, which no backend uses, and with the threshold over which
// etcd formats a unary request for a warning that etcd's own command
// sets and embed.NewConfig leaves at 0: with 0, every request (a range,
// a txn) was printed as text for a warning the logger then dropped,
// 2-3% of the test process's CPU in a RabbitMQ search
// (docs/benchmarks.md). tb's cleanups stop it.
func runEtcd(tb testing.TB) *embed.Etcd {
	etcdStartLock.Lock()
	defer etcdStartLock.Unlock()
	cfg := testserver.NewTestConfig(tb)
	cfg.WarningUnaryRequestDuration = embed.DefaultWarningUnaryRequestDuration
	e, err := embed.StartEtcd(cfg)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(e.Close)
	select {
	case <-e.Server.ReadyNotify():
	case <-time.After(60 * time.Second):
		e.Server.Stop()
		tb.Fatal("the embedded etcd took over 60 s to start")
	}
	go func() {
		if err := <-e.Err(); err != nil {
			tb.Error(err)
		}
	}()
	return e
}
