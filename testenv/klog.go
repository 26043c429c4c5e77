package testenv

import (
	"flag"
	"io"
	"os"
	"sync"

	"k8s.io/klog/v2"
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
