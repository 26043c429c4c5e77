package explore_test

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	goruntime "runtime"
	"strings"
	"sync"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/tools/clientcmd"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/yaml"
)

// The package's tests run their schedules on testenv's API servers, each
// in a process of its own (testenv/cmd/testenv-server, built from the
// testenv module by the go command): the explorer's module does not
// require testenv, so that adding the explorer to an operator's module
// adds none of the server's modules to it (issue 73,
// hack/explorepins).

// envServerBinary names a testenv-server binary to use instead of
// building one (the child run of TestGoTestLeavesNoServerBehind gets its
// parent's).
const envServerBinary = "STATUSPATCH_EXPLORE_TESTENV_SERVER"

// testServer is a testenv API server running in a process of its own.
type testServer struct {
	// Client is an uncached client of the server with the scheme given
	// to startServer.
	Client client.Client
	stop   func()
}

// ServerClient makes a testServer an explore.APIServer.
func (s *testServer) ServerClient() client.Client { return s.Client }

var (
	buildOnce sync.Once
	serverBin string
	buildErr  error
	// binDir holds the binary built; TestMain removes it.
	binDir string
)

// serverBinary builds testenv-server once per test binary, from the
// testenv module in the folder above.
// Its source is outside this module, which go test's cache does not
// check: the cached result is keyed on STATUSPATCH_SOURCE_DIGEST, which
// make test sets to a digest of the sources (Makefile).
func serverBinary() (string, error) {
	buildOnce.Do(func() {
		_ = os.Getenv("STATUSPATCH_SOURCE_DIGEST")
		if serverBin = os.Getenv(envServerBinary); serverBin != "" {
			return
		}
		goCmd, err := exec.LookPath("go")
		if err != nil {
			buildErr = fmt.Errorf("building testenv-server: %w", err)
			return
		}
		if binDir, buildErr = os.MkdirTemp("", "explore-testenv-server-"); buildErr != nil {
			return
		}
		serverBin = filepath.Join(binDir, "testenv-server")
		args, env := serverBuild()
		cmd := exec.Command(goCmd, append([]string{"build", "-o", serverBin}, append(args, "./cmd/testenv-server")...)...)
		cmd.Dir, cmd.Env = "..", env
		if out, err := cmd.CombinedOutput(); err != nil {
			buildErr = fmt.Errorf("go build ./cmd/testenv-server in ../: %w\n%s", err, out)
		}
	})
	return serverBin, buildErr
}

// serverBuild is how testenv-server is built, in ../: at a line of
// hack/compat.sh (which runs these tests with GOWORK=off, the line's
// go.mod and Go), with that line's testenv go.mod and the same Go, so the
// server is the line's (and its compile the one the line's testenv tests
// made); otherwise in the repository's workspace (testenv's own go.mod
// requires this checkout's modules at a release not on the proxy before
// it is tagged).
func serverBuild() (args, env []string) {
	env = append(os.Environ(), "GOFLAGS=")
	if os.Getenv("GOWORK") == "off" {
		if mf := lineModfile(); mf != "" {
			return []string{"-modfile=" + mf}, env
		}
	}
	if work, err := filepath.Abs(filepath.Join("..", "..", "go.work")); err == nil {
		env = append(env, "GOWORK="+work)
	}
	return nil, env
}

// lineModfile is testenv's alternate go.mod of hack/compat.sh's line
// whose controller-runtime this test binary was built with, relative to
// testenv's folder ("" for none). A test binary's build info lists no
// module, so the version is read from the path of a controller-runtime
// function's source, in the module cache (module@version/...).
func lineModfile() string {
	pc := reflect.ValueOf(client.New).Pointer()
	file, _ := goruntime.FuncForPC(pc).FileLine(pc)
	const mod = "sigs.k8s.io/controller-runtime@"
	_, rest, ok := strings.Cut(file, mod)
	if !ok {
		return ""
	}
	cr, _, _ := strings.Cut(rest, "/")
	mods, _ := filepath.Glob(filepath.Join("..", "..", "hack", "compat", "*", "testenv.mod"))
	for _, m := range mods {
		data, err := os.ReadFile(m)
		if err == nil && strings.Contains(string(data), "\tsigs.k8s.io/controller-runtime "+cr+"\n") {
			return filepath.ToSlash(filepath.Join("..", "hack", "compat", filepath.Base(filepath.Dir(m)), "testenv.mod"))
		}
	}
	return ""
}

// errUnavailable: the backend cannot run here (no kube-apiserver built).
var errUnavailable = errors.New("unavailable")

// startServer starts testenv-server with the test kinds' CRDs on backend
// ("embedded" or "full"); its stop ends the process and waits for it.
func startServer(backend string, scheme *runtime.Scheme) (*testServer, error) {
	bin, err := serverBinary()
	if err != nil {
		return nil, err
	}
	crds, err := filepath.Abs(filepath.Join("..", "internal", "testapi", "crd"))
	if err != nil {
		return nil, err
	}
	dir, err := os.MkdirTemp("", "explore-server-")
	if err != nil {
		return nil, err
	}
	kubeconfig := filepath.Join(dir, "kubeconfig")
	cmd := exec.Command(bin, "-backend", backend, "-crds", crds, "-kubeconfig", kubeconfig)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		_ = os.RemoveAll(dir)
		return nil, fmt.Errorf("testenv-server: %w", err)
	}
	stop := func() {
		_ = stdin.Close()
		_ = cmd.Wait()
		_ = os.RemoveAll(dir)
	}
	line, _ := bufio.NewReader(stdout).ReadString('\n')
	line = strings.TrimSpace(line)
	if line != "ready" {
		stop()
		if reason, ok := strings.CutPrefix(line, "unavailable: "); ok {
			return nil, fmt.Errorf("%w: %s", errUnavailable, reason)
		}
		return nil, fmt.Errorf("testenv-server -backend %s: %q\n%s", backend, line, stderr.String())
	}
	go func() { _, _ = io.Copy(io.Discard, stdout) }()
	cfg, err := clientcmd.BuildConfigFromFlags("", kubeconfig)
	if err != nil {
		stop()
		return nil, err
	}
	cfg.QPS, cfg.Burst = 1000, 2000
	opts := client.Options{Scheme: scheme}
	if backend == "embedded" {
		// The embedded server (apiextensions-apiserver) serves no /api,
		// so discovery fails: the kinds are mapped from the CRDs, as
		// testenv's own client does.
		if opts.Mapper, err = crdMapper(crds); err != nil {
			stop()
			return nil, err
		}
	}
	c, err := client.New(cfg, opts)
	if err != nil {
		stop()
		return nil, err
	}
	return &testServer{Client: c, stop: stop}, nil
}

// fullAPIAvailable says why the full API cannot run here (nil: it can):
// errUnavailable where no kube-apiserver is built, another error where
// testenv-server could not say.
func fullAPIAvailable() error {
	bin, err := serverBinary()
	if err != nil {
		return err
	}
	out, err := exec.Command(bin, "-backend", "full", "-check").CombinedOutput()
	if reason, ok := strings.CutPrefix(strings.TrimSpace(string(out)), "unavailable: "); ok {
		return fmt.Errorf("%w: %s", errUnavailable, reason)
	}
	if err != nil {
		return fmt.Errorf("testenv-server -check: %w\n%s", err, out)
	}
	return nil
}

// crdMapper maps the kinds of the CRDs in dir (and CustomResourceDefinition).
func crdMapper(dir string) (meta.RESTMapper, error) {
	files, err := filepath.Glob(filepath.Join(dir, "*.yaml"))
	if err != nil {
		return nil, err
	}
	crdGV := apiextensionsv1.SchemeGroupVersion
	m := meta.NewDefaultRESTMapper(nil)
	m.AddSpecific(crdGV.WithKind("CustomResourceDefinition"), crdGV.WithResource("customresourcedefinitions"),
		crdGV.WithResource("customresourcedefinition"), meta.RESTScopeRoot)
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			return nil, err
		}
		crd := &apiextensionsv1.CustomResourceDefinition{}
		if err := yaml.Unmarshal(data, crd); err != nil {
			return nil, fmt.Errorf("%s: %w", f, err)
		}
		scope := meta.RESTScopeNamespace
		if crd.Spec.Scope == apiextensionsv1.ClusterScoped {
			scope = meta.RESTScopeRoot
		}
		for _, v := range crd.Spec.Versions {
			gv := schema.GroupVersion{Group: crd.Spec.Group, Version: v.Name}
			m.AddSpecific(gv.WithKind(crd.Spec.Names.Kind), gv.WithResource(crd.Spec.Names.Plural),
				gv.WithResource(crd.Spec.Names.Singular), scope)
		}
	}
	return m, nil
}
