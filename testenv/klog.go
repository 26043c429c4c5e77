package testenv

import (
	"flag"
	"io"
	"os"
	"sync"
	"sync/atomic"
	_ "unsafe" // go:linkname

	"go.uber.org/zap"
	"go.uber.org/zap/zapcore"
	"k8s.io/klog/v2"

	// Declares etcd3ClientLogger; imported for the link below, which needs
	// the package in the binary (the API server imports it anyway).
	_ "k8s.io/apiserver/pkg/storage/storagebackend/factory"
)

var (
	klogMu    sync.Mutex
	klogFlags *flag.FlagSet
)

// configureKlog sends klog (which the embedded API server logs through) to
// stderr when verbose, and to io.Discard otherwise. klog is process-global:
// the last server started decides. A logger installed with klog.SetLogger
// takes precedence over both, as klog defines.
func configureKlog(verbose bool) {
	klogMu.Lock()
	defer klogMu.Unlock()
	if klogFlags == nil {
		klogFlags = flag.NewFlagSet("testenv-klog", flag.ContinueOnError)
		klog.InitFlags(klogFlags)
	}
	set := func(name, value string) { _ = klogFlags.Set(name, value) }
	if verbose {
		set("logtostderr", "true")
		klog.SetOutput(os.Stderr)
		return
	}
	set("v", "0")
	set("logtostderr", "false")
	set("alsologtostderr", "false")
	set("stderrthreshold", "FATAL")
	klog.SetOutput(io.Discard)
}

// etcd3ClientLogger is the zap logger every etcd client of the API server's
// storage layer logs through: made by the factory package's init, JSON to
// the process's stderr (an *os.File taken at init, so not even a swapped
// os.Stderr catches it), with no exported way to change it. It logs, for
// instance, "retrying of unary invoker failed ... context canceled" for
// every request canceled while the server talks to etcd (a manager
// stopping mid-list) and at shut-down. The API server reads it each time
// it creates a client, so replacing it before the server starts reaches
// them all.
//
//go:linkname etcd3ClientLogger k8s.io/apiserver/pkg/storage/storagebackend/factory.etcd3ClientLogger
var etcd3ClientLogger *zap.Logger

var (
	etcdClientLogOnce    sync.Once
	etcdClientLogVerbose atomic.Bool
)

// configureEtcdClientLog lets the etcd clients' logs through to stderr when
// verbose and drops them otherwise. Like klog it is process-global and the
// last server started decides; the switch is atomic, so servers already
// running follow it without a data race.
func configureEtcdClientLog(verbose bool) {
	etcdClientLogVerbose.Store(verbose)
	etcdClientLogOnce.Do(func() {
		if etcd3ClientLogger == nil {
			return
		}
		etcd3ClientLogger = etcd3ClientLogger.WithOptions(zap.WrapCore(func(c zapcore.Core) zapcore.Core {
			return switchedCore{Core: c, on: &etcdClientLogVerbose}
		}))
	})
}

// switchedCore passes entries to Core only while on.
type switchedCore struct {
	zapcore.Core
	on *atomic.Bool
}

func (c switchedCore) Enabled(l zapcore.Level) bool { return c.on.Load() && c.Core.Enabled(l) }

func (c switchedCore) With(fields []zapcore.Field) zapcore.Core {
	return switchedCore{Core: c.Core.With(fields), on: c.on}
}

func (c switchedCore) Check(e zapcore.Entry, ce *zapcore.CheckedEntry) *zapcore.CheckedEntry {
	if !c.on.Load() {
		return ce
	}
	return c.Core.Check(e, ce)
}
