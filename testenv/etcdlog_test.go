//go:build linux

package testenv

import (
	"context"
	"os"
	"strings"
	"syscall"
	"testing"
	"time"

	"go.uber.org/zap/zapcore"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/client-go/dynamic"

	testv1 "github.com/statuspatch/statuspatch/internal/testapi/v1"
	"github.com/statuspatch/statuspatch/testenv/internal/testapi"
)

// The API server's etcd clients log through a zap logger writing to the
// process's stderr (JSON lines with "logger":"etcd-client"), notably
// "retrying of unary invoker failed ... context canceled" at shut-down. Not
// verbose, none of it reaches stderr. Not parallel: it redirects fd 2.
func TestEtcdClientLogsQuietUnlessVerbose(t *testing.T) {
	out := captureStderr(t, func() {
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
		defer cancel()
		began := time.Now()
		env, stop, err := StartServer(ctx,
			WithCRDs(testapi.CRDs()...),
			WithBackend(BackendEmbedded),
			WithVerbose(false))
		if err != nil {
			t.Fatal(err)
		}
		defer stop()
		t.Logf("started in %s", time.Since(began))

		dyn, err := dynamic.NewForConfig(env.Config)
		if err != nil {
			t.Fatal(err)
		}
		gadgets := dyn.Resource(testv1.GroupVersion.WithResource("gadgets"))
		w, err := gadgets.Watch(ctx, metav1.ListOptions{})
		if err != nil {
			t.Fatal(err)
		}
		defer w.Stop()
		g := &unstructured.Unstructured{}
		g.SetAPIVersion(testv1.GroupVersion.String())
		g.SetKind("Gadget")
		g.SetName("quiet")
		if _, err := gadgets.Create(ctx, g, metav1.CreateOptions{}); err != nil {
			t.Fatal(err)
		}
		select {
		case ev := <-w.ResultChan():
			t.Logf("watch event: %s", ev.Type)
		case <-ctx.Done():
			t.Fatal("no watch event")
		}

		// Requests canceled while the server talks to etcd, as when a
		// manager stops mid-list.
		for i := range 200 {
			short, cancelShort := context.WithTimeout(ctx, time.Duration(i%20)*100*time.Microsecond)
			_, _ = gadgets.List(short, metav1.ListOptions{})
			_, _ = gadgets.Get(short, "quiet", metav1.GetOptions{})
			cancelShort()
		}

		// Stop with the watch open. The server waits for it (up to its 60s
		// shut-down timeout): the client gives up on it after a while, as a
		// stopping manager would.
		go func() {
			time.Sleep(2 * time.Second)
			w.Stop()
		}()
		began = time.Now()
		stop()
		t.Logf("stopped in %s", time.Since(began))
		time.Sleep(time.Second) // stragglers
	})
	var leaked []string
	for line := range strings.Lines(out) {
		if strings.Contains(line, `"logger":"etcd-client"`) {
			leaked = append(leaked, line)
		}
	}
	if len(leaked) > 0 {
		t.Errorf("%d etcd client log lines reached stderr with verbose off, the first:\n%s",
			len(leaked), strings.Join(leaked[:min(3, len(leaked))], ""))
	}
	if len(leaked) == 0 && out != "" {
		t.Logf("other stderr output:\n%s", out)
	}
}

// Verbose on lets the etcd clients' logs through; off drops them. Checked on
// the logger itself, to spare a second server start-up.
func TestEtcdClientLogFollowsVerbose(t *testing.T) {
	was := etcdClientLogVerbose.Load()
	t.Cleanup(func() { configureEtcdClientLog(was) })
	configureEtcdClientLog(true)
	if etcd3ClientLogger == nil || !etcd3ClientLogger.Core().Enabled(zapcore.WarnLevel) {
		t.Error("verbose: the etcd client logger drops warnings")
	}
	configureEtcdClientLog(false)
	if etcd3ClientLogger.Core().Enabled(zapcore.ErrorLevel) {
		t.Error("not verbose: the etcd client logger lets errors through")
	}
	if ce := etcd3ClientLogger.Check(zapcore.WarnLevel, "retrying of unary invoker failed"); ce != nil {
		t.Error("not verbose: a warning would be written")
	}
}

// captureStderr runs f with file descriptor 2 redirected to a file, so that
// what any code writes to the process's stderr, even through an *os.File
// captured before the test began, is returned instead of printed.
func captureStderr(t *testing.T, f func()) string {
	t.Helper()
	file, err := os.CreateTemp(t.TempDir(), "stderr")
	if err != nil {
		t.Fatal(err)
	}
	defer file.Close()
	saved, err := syscall.Dup(2)
	if err != nil {
		t.Fatal(err)
	}
	if err := syscall.Dup3(int(file.Fd()), 2, 0); err != nil {
		syscall.Close(saved)
		t.Fatal(err)
	}
	func() {
		defer func() {
			_ = syscall.Dup3(saved, 2, 0)
			syscall.Close(saved)
		}()
		f()
	}()
	out, err := os.ReadFile(file.Name())
	if err != nil {
		t.Fatal(err)
	}
	return string(out)
}
