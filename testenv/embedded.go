package testenv

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/uuid"
	"go.etcd.io/etcd/server/v3/embed"
	serveroptions "k8s.io/apiextensions-apiserver/pkg/cmd/server/options"
	servertesting "k8s.io/apiextensions-apiserver/pkg/cmd/server/testing"
	etcd3testing "k8s.io/apiserver/pkg/storage/etcd3/testing"
	"k8s.io/apiserver/pkg/storage/storagebackend"
	"k8s.io/client-go/rest"
)

// fakeKubeconfig is never contacted. The apiextensions-apiserver's delegated
// authentication and authorization options insist on a kubeconfig to start;
// with --authentication-skip-lookup nothing is looked up through it. The
// loopback client config that Start hands out is a system:masters token.
const fakeKubeconfig = `apiVersion: v1
kind: Config
clusters:
- cluster:
    server: http://127.1.2.3:12345
  name: integration
contexts:
- context:
    cluster: integration
    user: test
  name: default-context
current-context: default-context
users:
- name: test
  user:
    password: test
    username: test
`

// startEmbedded runs etcd and the apiextensions-apiserver in-process, the
// way k8s.io/apiextensions-apiserver/test/integration/fixtures does. The
// returned stop func shuts both down and removes their files; on error
// everything started so far is already stopped.
func startEmbedded(_ context.Context, o options, shim *tbShim) (*rest.Config, func(), error) {
	configureKlog(o.verbose)
	etcdStorage, _, err := startEtcd(o, shim)
	if err != nil {
		return nil, nil, err
	}

	dir := shim.TempDir()
	kubeconfig := filepath.Join(dir, "kubeconfig")
	if err := os.WriteFile(kubeconfig, []byte(fakeKubeconfig), 0o600); err != nil {
		shim.runCleanups()
		return nil, nil, fmt.Errorf("testenv: writing throwaway kubeconfig: %w", err)
	}

	flags := []string{
		"--etcd-prefix", "/testenv-" + uuid.NewString(),
		"--authentication-skip-lookup",
		"--authentication-kubeconfig", kubeconfig,
		"--authorization-kubeconfig", kubeconfig,
		"--kubeconfig", kubeconfig,
		// Admission and filters that would need a kube-apiserver to talk to.
		"--enable-priority-and-fairness=false",
		"--disable-admission-plugins", "NamespaceLifecycle,MutatingAdmissionWebhook,ValidatingAdmissionWebhook,ValidatingAdmissionPolicy,MutatingAdmissionPolicy",
	}

	var server servertesting.TestServer
	completed := runOwned(func() {
		server, err = servertesting.StartTestServer(shim, nil, flags, storageConfig(etcdStorage))
	})
	switch {
	case !completed:
		shim.runCleanups()
		return nil, nil, fmt.Errorf("testenv: starting apiextensions-apiserver: %s", strings.Join(shim.errors(), "; "))
	case err != nil:
		shim.runCleanups()
		return nil, nil, fmt.Errorf("testenv: starting apiextensions-apiserver: %w", err)
	}

	stop := func() {
		server.TearDownFn()
		shim.runCleanups()
	}
	return clientConfig(server.ClientConfig), stop, nil
}

// etcdStartAttempts bounds the starts of the embedded etcd that lost a
// port. k8s.io/apiserver's test helper picks its two ports by listening on
// port 0 and closing, then etcd binds them; between the two another
// process may take one (a test binary beside this one starting its own
// server, any outgoing connection given that ephemeral port), and etcd's
// bind fails with "address already in use". CI met it twice in one run,
// in two test binaries at once. Each attempt picks new ports.
const etcdStartAttempts = 5

// startEtcd starts etcd in-process (runEtcd: k8s.io/apiserver's test
// config, a client URL on localhost) and returns its storage config and
// the server. shim's cleanups stop it; on error they have already run.
func startEtcd(o options, shim *tbShim) (*storagebackend.Config, *embed.Etcd, error) {
	configureEtcdClientLog(o.verbose)
	var e *embed.Etcd
	cfg, err := startEtcdWith(shim, func(tb testing.TB) (*etcd3testing.EtcdTestServer, *storagebackend.Config) {
		e = runEtcd(tb)
		urls := append([]string(nil), e.Server.Cluster().ClientURLs()...)
		return nil, &storagebackend.Config{
			Type:      storagebackend.StorageTypeETCD3,
			Prefix:    etcd3testing.PathPrefix(),
			Transport: storagebackend.TransportConfig{ServerList: urls},
		}
	})
	if err != nil {
		return nil, nil, err
	}
	return cfg, e, nil
}

// startEtcdWith is startEtcd with the helper that starts etcd: an attempt
// that failed for a port another process took is undone (its cleanups
// run, its failures forgotten) and made again, up to etcdStartAttempts;
// any other failure ends the start at once.
func startEtcdWith(shim *tbShim, start func(testing.TB) (*etcd3testing.EtcdTestServer, *storagebackend.Config)) (*storagebackend.Config, error) {
	for attempt := 1; ; attempt++ {
		m := shim.mark()
		var etcdServer *etcd3testing.EtcdTestServer
		var etcdStorage *storagebackend.Config
		if runOwned(func() { etcdServer, etcdStorage = start(shim) }) {
			if etcdServer != nil && etcdServer.V3Client != nil {
				// Runs before etcd's own cleanup (cleanups run last first).
				shim.Cleanup(func() { _ = etcdServer.V3Client.Close() })
			}
			return etcdStorage, nil
		}
		errs := shim.errorsSince(m)
		if attempt < etcdStartAttempts && slices.ContainsFunc(errs, lostPort) {
			shim.Logf("embedded etcd: start %d of at most %d lost a port to another process (%s); trying new ports",
				attempt, etcdStartAttempts, strings.Join(errs, "; "))
			shim.undo(m)
			continue
		}
		shim.runCleanups()
		msg := strings.Join(shim.errors(), "; ")
		if attempt > 1 {
			msg = fmt.Sprintf("%s (start %d of %d; the ones before lost a port to another process)", msg, attempt, etcdStartAttempts)
		}
		return nil, fmt.Errorf("testenv: starting embedded etcd: %s", msg)
	}
}

// lostPort reports whether a failure of etcd's start is a bind to a port
// that was no longer free.
func lostPort(msg string) bool { return strings.Contains(msg, "address already in use") }

// storageConfig is the server's default storage config (codec, intervals,
// tracer and so on, which the etcd test helper leaves zero) pointed at the
// embedded etcd. --etcd-prefix then gives it a prefix of its own.
func storageConfig(fromHelper *storagebackend.Config) *storagebackend.Config {
	cfg := serveroptions.NewCustomResourceDefinitionsServerOptions(nil, nil).RecommendedOptions.Etcd.StorageConfig
	cfg.Type = fromHelper.Type
	cfg.Prefix = fromHelper.Prefix
	cfg.Transport.ServerList = append([]string(nil), fromHelper.Transport.ServerList...)
	return &cfg
}

// clientConfig copies the server's loopback config for clients: JSON (custom
// resources have no protobuf encoding) and no client-side throttling.
func clientConfig(loopback *rest.Config) *rest.Config {
	cfg := rest.CopyConfig(loopback)
	cfg.ContentType = ""
	cfg.AcceptContentTypes = ""
	cfg.QPS = 1000
	cfg.Burst = 2000
	cfg.RateLimiter = nil
	cfg.UserAgent = "statuspatch-testenv"
	return cfg
}
