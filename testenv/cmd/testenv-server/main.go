// Command testenv-server runs one testenv API server in a process of its
// own, for tests whose module must not require testenv (the explorer's
// own tests): it installs the CRDs of the given directories, writes a
// kubeconfig that reaches the server with full privileges, prints "ready"
// and serves until its standard input closes, then stops the server
// (removing its directories) and exits.
//
//	go run github.com/statuspatch/statuspatch/testenv/cmd/testenv-server -crds config/crd/bases -kubeconfig /tmp/kc
//
// -backend full runs the full API (kube-apiserver; testenv.WithFullAPI).
// -check only says whether the backend can start here: it prints "ok", or
// "unavailable: " and the reason and exits 3 (no kube-apiserver built).
// Closing standard input is the only way to stop it, so a server started
// by a test process ends with that process, however it ends. Unless GOGC
// or GOMEMLIMIT is set, it and its kube-apiserver collect at GOGC=400
// under a 1 GiB soft limit (gc.go): a test waits on the server's CPU.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/clientcmd"
	clientcmdapi "k8s.io/client-go/tools/clientcmd/api"

	"github.com/statuspatch/statuspatch/testenv"
)

// exitUnavailable is the exit code of -check, or of a start, when the
// backend cannot run here.
const exitUnavailable = 3

func main() { os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr)) }

type dirs []string

func (d *dirs) String() string     { return strings.Join(*d, ",") }
func (d *dirs) Set(v string) error { *d = append(*d, v); return nil }

func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("testenv-server", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var crds dirs
	fs.Var(&crds, "crds", "a directory of CRD manifests to install (repeatable)")
	backend := fs.String("backend", "embedded", "embedded (apiextensions-apiserver, in-process etcd) or full (kube-apiserver)")
	kubeconfig := fs.String("kubeconfig", "", "write the server's kubeconfig to this file (required unless -check)")
	check := fs.Bool("check", false, "only say whether the backend can start here")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	opts := []testenv.Option{testenv.WithCRDDirectory(crds...)}
	switch *backend {
	case "embedded":
		opts = append(opts, testenv.WithBackend(testenv.BackendEmbedded))
	case "full":
		if _, _, err := testenv.KubeAPIServerPath(); err != nil {
			fmt.Fprintf(stdout, "unavailable: %v\n", err)
			return exitUnavailable
		}
		opts = append(opts, testenv.WithBackend(testenv.BackendFullAPI))
	default:
		fmt.Fprintf(stderr, "testenv-server: -backend %q: want embedded or full\n", *backend)
		return 2
	}
	if *check {
		fmt.Fprintln(stdout, "ok")
		return 0
	}
	if *kubeconfig == "" {
		fmt.Fprintln(stderr, "testenv-server: -kubeconfig is required")
		return 2
	}
	if _, err := tuneGC(os.Getenv, os.Setenv); err != nil {
		fmt.Fprintf(stderr, "testenv-server: setting the collector of kube-apiserver: %v\n", err)
		return 1
	}
	env, stop, err := testenv.StartServer(context.Background(), opts...)
	if err != nil {
		fmt.Fprintf(stderr, "testenv-server: %v\n", err)
		return 1
	}
	defer stop()
	if err := clientcmd.WriteToFile(kubeconfigOf(env.Config), *kubeconfig); err != nil {
		fmt.Fprintf(stderr, "testenv-server: kubeconfig %s: %v\n", *kubeconfig, err)
		return 1
	}
	fmt.Fprintln(stdout, "ready")
	if _, err := io.Copy(io.Discard, stdin); err != nil && !errors.Is(err, os.ErrClosed) {
		fmt.Fprintf(stderr, "testenv-server: reading stdin: %v\n", err)
	}
	return 0
}

// kubeconfigOf is cfg as a kubeconfig of one context.
func kubeconfigOf(cfg *rest.Config) clientcmdapi.Config {
	const name = "testenv"
	c := clientcmdapi.NewConfig()
	c.Clusters[name] = &clientcmdapi.Cluster{
		Server:                   cfg.Host,
		CertificateAuthority:     cfg.CAFile,
		CertificateAuthorityData: cfg.CAData,
		InsecureSkipTLSVerify:    cfg.Insecure,
		TLSServerName:            cfg.ServerName,
	}
	c.AuthInfos[name] = &clientcmdapi.AuthInfo{
		ClientCertificate:     cfg.CertFile,
		ClientCertificateData: cfg.CertData,
		ClientKey:             cfg.KeyFile,
		ClientKeyData:         cfg.KeyData,
		Token:                 cfg.BearerToken,
		TokenFile:             cfg.BearerTokenFile,
		Username:              cfg.Username,
		Password:              cfg.Password,
	}
	c.Contexts[name] = &clientcmdapi.Context{Cluster: name, AuthInfo: name}
	c.CurrentContext = name
	return *c
}
