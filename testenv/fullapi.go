package testenv

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/google/uuid"
	"k8s.io/client-go/rest"
	"sigs.k8s.io/controller-runtime/pkg/envtest"
)

// fullAPIDisabledAdmission are the admission plugins the full-API backend
// turns off: ServiceAccount, as envtest does (no controller creates the
// default ServiceAccount, so every Pod would be refused), and
// NamespaceLifecycle, as the embedded backend does, so that objects can be
// created in any namespace without creating it first (and namespaces,
// which no controller finalizes, never block a create by being stuck
// Terminating).
var fullAPIDisabledAdmission = []string{"ServiceAccount", "NamespaceLifecycle"}

// startFullAPI runs etcd in-process, as the embedded backend does, and the
// kube-apiserver binary bin against it, through controller-runtime's
// envtest.APIServer (its certificates, ports, flags and health check). The
// two start at once: kube-apiserver is given an etcdListener, on which
// etcd serves once it is up (etcd's start, 0.2-1 s, was before
// kube-apiserver's, 2-2.5 s, on an idle 2-core machine). The
// returned stop func stops kube-apiserver, then etcd; on error everything
// started so far is stopped, except a kube-apiserver started against an
// etcd that failed: it is stopped when its start gives up (its timeout).
// The clients' config authenticates with a bearer token (writeTokenFile).
func startFullAPI(ctx context.Context, o options, bin string, shim *tbShim) (*rest.Config, func(), error) {
	configureKlog(o.verbose)
	token, tokenDir, err := writeTokenFile()
	if err != nil {
		return nil, nil, err
	}
	fw, err := newEtcdListener()
	if err != nil {
		_ = os.RemoveAll(tokenDir)
		return nil, nil, err
	}
	go func() {
		_, e, err := startEtcd(o, shim)
		fw.serve(e, err)
	}()

	// kube-apiserver's own output: to stderr when verbose, else only the
	// last lines, kept for the error if it does not come up.
	tail := &tailBuffer{max: 8 << 10}
	var out io.Writer = tail
	if o.verbose {
		out = io.MultiWriter(tail, os.Stderr)
	}
	startTimeout := o.timeout
	if deadline, ok := ctx.Deadline(); ok {
		startTimeout = time.Until(deadline)
	}
	server := &envtest.APIServer{
		Path:         bin,
		EtcdURL:      fw.url(),
		StartTimeout: startTimeout,
		StopTimeout:  20 * time.Second,
		Out:          out,
		Err:          out,
	}
	server.Configure().
		Set("etcd-prefix", "/testenv-"+uuid.NewString()).
		Set("disable-admission-plugins", strings.Join(fullAPIDisabledAdmission, ",")).
		Set("token-auth-file", filepath.Join(tokenDir, tokenFile))
	stop := func() {
		_ = server.Stop()
		fw.close()
		shim.runCleanups()
		_ = os.RemoveAll(tokenDir)
	}
	var startErr error
	started := make(chan struct{})
	go func() {
		startErr = server.Start()
		close(started)
	}()
	select {
	case <-fw.ready:
		if fw.err != nil {
			// startEtcd ran etcd's cleanups; kube-apiserver
			// cannot come up without it.
			go func() {
				<-started
				_ = server.Stop()
				fw.close()
				_ = os.RemoveAll(tokenDir)
			}()
			return nil, nil, fw.err
		}
		<-started
	case <-started:
		<-fw.ready
	}
	if fw.err != nil {
		stop()
		return nil, nil, fw.err
	}
	if startErr != nil {
		stop()
		return nil, nil, fmt.Errorf("testenv: starting %s against the embedded etcd at %s: %w%s", bin, fw.url().Host, startErr, tail.last(15))
	}
	cfg := clientConfig(&rest.Config{
		Host:            server.SecureServing.URL("https", "/").String(),
		TLSClientConfig: rest.TLSClientConfig{CAData: server.CA},
		BearerToken:     token,
	})
	if err := waitReady(ctx, cfg); err != nil {
		stop()
		return nil, nil, fmt.Errorf("%w%s", err, tail.last(15))
	}
	return cfg, stop, nil
}

// tokenFile is the name of kube-apiserver's --token-auth-file in the
// directory writeTokenFile makes.
const tokenFile = "tokens.csv"

// writeTokenFile makes a directory with a token file of one user,
// testenv-admin in system:masters, and returns its random token and the
// directory, which the caller removes. The full API's clients authenticate
// by this token, as the embedded backend's loopback clients do, not by a
// client certificate, whose chain kube-apiserver verified on every request
// (an ECDSA signature: 4.7% of its CPU in a RabbitMQ search,
// docs/benchmarks.md, "what a request costs kube-apiserver"). Who the
// server sees is the same.
func writeTokenFile() (token, dir string, err error) {
	dir, err = os.MkdirTemp("", "testenv-token-")
	if err != nil {
		return "", "", fmt.Errorf("testenv: a directory for kube-apiserver's token file: %w", err)
	}
	token = uuid.NewString()
	line := token + `,testenv-admin,testenv-admin,"system:masters"` + "\n"
	if err := os.WriteFile(filepath.Join(dir, tokenFile), []byte(line), 0o600); err != nil {
		_ = os.RemoveAll(dir)
		return "", "", fmt.Errorf("testenv: writing kube-apiserver's token file in %s: %w", dir, err)
	}
	return token, dir, nil
}

// waitReady polls /readyz until kube-apiserver's post-start hooks are done
// (/healthz, which envtest waits for, comes earlier): the bootstrap
// controllers that create the default namespace, the default ServiceCIDR
// that Services get their clusterIP from, and the priority classes.
func waitReady(ctx context.Context, cfg *rest.Config) error {
	hc, err := rest.HTTPClientFor(cfg)
	if err != nil {
		return fmt.Errorf("testenv: HTTP client: %w", err)
	}
	var last string
	for {
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, strings.TrimSuffix(cfg.Host, "/")+"/readyz", nil)
		if err != nil {
			return fmt.Errorf("testenv: kube-apiserver readiness: %w", err)
		}
		resp, err := hc.Do(req)
		if err == nil {
			body, _ := io.ReadAll(io.LimitReader(resp.Body, 4<<10))
			_ = resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return nil
			}
			last = fmt.Sprintf("%s: %s", resp.Status, failedChecks(string(body)))
		} else {
			last = err.Error()
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("testenv: kube-apiserver did not become ready (/readyz): %w (last answer: %s)", context.Cause(ctx), last)
		case <-time.After(50 * time.Millisecond):
		}
	}
}

// failedChecks keeps the failing lines of a /readyz answer.
func failedChecks(body string) string {
	var bad []string
	for _, l := range strings.Split(body, "\n") {
		if strings.HasPrefix(l, "[-]") {
			bad = append(bad, strings.TrimPrefix(l, "[-]"))
		}
	}
	if len(bad) == 0 {
		return strings.TrimSpace(body)
	}
	return strings.Join(bad, "; ")
}

// tailBuffer keeps the last max bytes written to it.
type tailBuffer struct {
	mu  sync.Mutex
	max int
	buf []byte
}

func (t *tailBuffer) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.buf = append(t.buf, p...)
	if over := len(t.buf) - t.max; over > 0 {
		t.buf = append([]byte(nil), t.buf[over:]...)
	}
	return len(p), nil
}

// last returns up to n of the last lines, as "; kube-apiserver said: ...".
func (t *tailBuffer) last(n int) string {
	t.mu.Lock()
	defer t.mu.Unlock()
	lines := bytes.Split(bytes.TrimSpace(t.buf), []byte("\n"))
	if len(lines) == 0 || len(lines[0]) == 0 {
		return ""
	}
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return "; kube-apiserver's last output:\n" + string(bytes.Join(lines, []byte("\n")))
}
