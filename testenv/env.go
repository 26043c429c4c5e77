package testenv

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/runtime"
	clientgoscheme "k8s.io/client-go/kubernetes/scheme"
	"k8s.io/client-go/rest"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// Env is a running API server with the requested CRDs installed and served.
type Env struct {
	// Config reaches the server with full privileges.
	Config *rest.Config
	// Client is an uncached client using Mapper and Scheme.
	Client client.Client
	// Mapper maps every served version of every installed CRD (and the
	// CustomResourceDefinition kind). It is built from the CRDs, not from
	// discovery; under BackendEnvtest and BackendFullAPI it falls back to
	// discovery for other kinds (Deployments, Secrets, ...).
	Mapper meta.RESTMapper
	// Scheme is the scheme given with WithScheme, or the default one.
	Scheme *runtime.Scheme
	// CRDs are the installed CustomResourceDefinitions as the server returned them.
	CRDs []*apiextensionsv1.CustomResourceDefinition
	// CRDFiles says, one line per file or subdirectory of the WithCRDDirectory
	// directories, what was read from it ("config/crd/bases/x.yaml:
	// widgets.example.com") or why it was skipped ("config/crd/kustomization.yaml:
	// skipped, kind Kustomization"). Start logs it.
	CRDFiles []string
	// Backend is the backend that runs the server (never BackendAuto).
	Backend Backend
	// BackendReason says why Backend was chosen, e.g. "KUBEBUILDER_ASSETS
	// is not set" or "KUBEBUILDER_ASSETS=/path selects envtest; ...".
	BackendReason string
	// StartupTime is how long it took until every CRD was served.
	StartupTime time.Duration
}

// ServerClient returns Client: an Env is where the explorer runs its
// schedules (explore.Server(env)).
func (e *Env) ServerClient() client.Client { return e.Client }

// Start starts a server for the test t and stops it when t's cleanups run.
// Any failure fails t with t.Fatalf, so call Start from the test's goroutine.
func Start(t testing.TB, opts ...Option) *Env {
	t.Helper()
	env, stop, err := start(context.Background(), t, opts)
	if err != nil {
		t.Fatalf("%v", err)
	}
	t.Cleanup(stop)
	t.Logf("testenv: %s API server (%s) with %d CRD(s) ready in %s",
		env.Backend, env.BackendReason, len(env.CRDs), env.StartupTime.Round(time.Millisecond))
	for _, f := range env.CRDFiles {
		t.Logf("testenv: CRD directory: %s", f)
	}
	return env
}

// StartServer starts a server outside of a test, for programs such as
// demos. ctx bounds start-up only; the server runs until stop is called.
// stop is safe to call more than once. Server logs go to stderr when
// STATUSPATCH_TESTENV_VERBOSE is set (or WithVerbose(true)).
func StartServer(ctx context.Context, opts ...Option) (env *Env, stop func(), err error) {
	return start(ctx, nil, opts)
}

func start(ctx context.Context, t testing.TB, opts []Option) (*Env, func(), error) {
	began := time.Now()
	o := newOptions(opts)
	if o.scheme == nil {
		o.scheme = defaultScheme()
	}
	var kubeAPIServer string
	switch o.backend {
	case BackendEnvtest:
		if err := checkEnvtestAssets(o); err != nil {
			return nil, nil, err
		}
	case BackendFullAPI:
		bin, source, err := findKubeAPIServer(o)
		if err != nil {
			return nil, nil, err
		}
		kubeAPIServer = bin
		o.backendReason += "; kube-apiserver from " + source
	}
	crds, crdFiles, err := collectCRDs(o)
	if err != nil {
		return nil, nil, err
	}
	if !o.skipSchemaCheck {
		// Before anything starts: a CRD that drifted from its Go type makes
		// the server prune status fields, and tests pass against a schema
		// production will not have.
		if err := CheckStatusSchema(o.scheme, crds...); err != nil {
			return nil, nil, fmt.Errorf("%w (testenv.WithoutStatusSchemaCheck() turns this check off)", err)
		}
	}
	ctx, cancel := context.WithTimeoutCause(ctx, o.timeout,
		fmt.Errorf("testenv: start-up took longer than %s", o.timeout))
	defer cancel()

	var cfg *rest.Config
	var stopServer func()
	switch o.backend {
	case BackendEmbedded:
		cfg, stopServer, err = startEmbedded(ctx, o, newTBShim(shimName(t), t, o.verbose))
	case BackendEnvtest:
		cfg, stopServer, err = startEnvtest(ctx, o, crds)
	case BackendFullAPI:
		cfg, stopServer, err = startFullAPI(ctx, o, kubeAPIServer, newTBShim(shimName(t), t, o.verbose))
	default:
		err = fmt.Errorf("testenv: unknown backend %v", o.backend)
	}
	if err != nil {
		return nil, nil, err
	}
	var once sync.Once
	stop := func() { once.Do(stopServer) }

	env, err := finish(ctx, o, cfg, crds)
	if err != nil {
		stop()
		return nil, nil, err
	}
	env.StartupTime = time.Since(began)
	env.CRDFiles = crdFiles
	return env, stop, nil
}

func shimName(t testing.TB) string {
	if t == nil {
		return "StartServer"
	}
	return t.Name()
}

// finish installs the CRDs (embedded and full-API backends), waits until they are served,
// and builds the mapper and client.
func finish(ctx context.Context, o options, cfg *rest.Config, crds []*apiextensionsv1.CustomResourceDefinition) (*Env, error) {
	var err error
	installed := crds
	if o.backend == BackendEmbedded || o.backend == BackendFullAPI {
		if installed, err = installCRDs(ctx, cfg, crds); err != nil {
			return nil, err
		}
	}
	if installed, err = waitForCRDs(ctx, cfg, installed); err != nil {
		return nil, err
	}
	mapper := newStaticMapper(installed)
	if o.backend == BackendEnvtest || o.backend == BackendFullAPI {
		if mapper, err = envtestMapper(cfg, mapper); err != nil {
			return nil, err
		}
	}
	c, err := client.New(cfg, client.Options{Scheme: o.scheme, Mapper: mapper})
	if err != nil {
		return nil, fmt.Errorf("testenv: client: %w", err)
	}
	return &Env{
		Config:        cfg,
		Client:        c,
		Mapper:        mapper,
		Scheme:        o.scheme,
		CRDs:          installed,
		Backend:       o.backend,
		BackendReason: o.backendReason,
	}, nil
}

func defaultScheme() *runtime.Scheme {
	s := runtime.NewScheme()
	err := errors.Join(clientgoscheme.AddToScheme(s), apiextensionsv1.AddToScheme(s))
	if err != nil {
		panic(fmt.Sprintf("testenv: default scheme: %v", err))
	}
	return s
}
