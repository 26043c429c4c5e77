package testenv

import (
	"os"
	"strconv"
	"time"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"k8s.io/apimachinery/pkg/runtime"
)

// Backend selects what runs the API server.
type Backend int

const (
	// BackendAuto (the default) picks BackendEnvtest when KUBEBUILDER_ASSETS
	// is set and BackendEmbedded otherwise.
	BackendAuto Backend = iota
	// BackendEmbedded runs apiextensions-apiserver and etcd in-process.
	BackendEmbedded
	// BackendEnvtest runs kube-apiserver and etcd binaries from
	// KUBEBUILDER_ASSETS (or WithBinaryAssetsDirectory) through
	// controller-runtime's envtest.
	BackendEnvtest
	// BackendFullAPI runs a kube-apiserver binary against the in-process
	// etcd of BackendEmbedded: built-in kinds (Deployments, StatefulSets,
	// Services, ConfigMaps, Secrets, ...) as well as the CRDs. Only ever
	// chosen explicitly (WithFullAPI); see KubeAPIServerPath for where the
	// binary comes from.
	BackendFullAPI
)

// String returns the backend's name as used in logs.
func (b Backend) String() string {
	switch b {
	case BackendAuto:
		return "auto"
	case BackendEmbedded:
		return "embedded"
	case BackendEnvtest:
		return "envtest"
	case BackendFullAPI:
		return "full"
	default:
		return "Backend(" + strconv.Itoa(int(b)) + ")"
	}
}

// Environment variables read by Start and StartServer.
const (
	// EnvVerbose, when "1" or "true", lets the API server's and etcd's logs through.
	EnvVerbose = "STATUSPATCH_TESTENV_VERBOSE"
	// EnvAssets names a directory holding kube-apiserver and etcd binaries.
	EnvAssets = "KUBEBUILDER_ASSETS"
)

// DefaultTimeout bounds start-up: the server becoming healthy plus every CRD
// being established and served.
const DefaultTimeout = 2 * time.Minute

// Option configures Start and StartServer.
type Option func(*options)

type options struct {
	crdDirs   []string
	crds      []*apiextensionsv1.CustomResourceDefinition
	scheme    *runtime.Scheme
	backend   Backend
	assetsDir string
	// assetsFrom says where assetsDir came from, for messages: EnvAssets
	// or "WithBinaryAssetsDirectory".
	assetsFrom string
	// backendReason says why backend was chosen (Env.BackendReason).
	backendReason string
	verbose       bool
	timeout       time.Duration
	// skipSchemaCheck turns off CheckStatusSchema at start-up.
	skipSchemaCheck bool
}

func newOptions(opts []Option) options {
	o := options{
		verbose: isTrue(os.Getenv(EnvVerbose)),
		timeout: DefaultTimeout,
	}
	if dir := os.Getenv(EnvAssets); dir != "" {
		o.assetsDir, o.assetsFrom = dir, EnvAssets
	}
	for _, opt := range opts {
		opt(&o)
	}
	o.backendReason = chooseBackend(&o)
	return o
}

// chooseBackend resolves BackendAuto and returns why the backend was chosen.
func chooseBackend(o *options) string {
	assets := o.assetsFrom + "=" + o.assetsDir
	if o.assetsFrom == "WithBinaryAssetsDirectory" {
		assets = "WithBinaryAssetsDirectory(" + strconv.Quote(o.assetsDir) + ")"
	}
	switch {
	case o.backend == BackendEmbedded && o.assetsDir != "":
		return "WithBackend(BackendEmbedded), which ignores " + assets
	case o.backend == BackendEmbedded:
		return "WithBackend(BackendEmbedded)"
	case o.backend == BackendEnvtest:
		return "WithBackend(BackendEnvtest)"
	case o.backend == BackendFullAPI:
		return "WithFullAPI()"
	case o.backend != BackendAuto:
		return "WithBackend(" + o.backend.String() + ")"
	case o.assetsDir != "":
		o.backend = BackendEnvtest
		return assets + " selects envtest; WithBackend(BackendEmbedded) ignores it"
	default:
		o.backend = BackendEmbedded
		return EnvAssets + " is not set"
	}
}

// WithCRDDirectory installs every CustomResourceDefinition found in the
// .yaml, .yml and .json files directly inside each directory and in its
// bases/ subdirectory, skipping files without any (see ReadCRDDirectory):
// kubebuilder's config/crd and config/crd/bases both work. Env.CRDFiles
// (logged by Start) says which files were read. It may be given more than
// once.
//
// A relative directory is taken from the working directory, which under go
// test is the test's package directory, not the module root: kubebuilder's
// suite_test.go in internal/controller needs
// filepath.Join("..", "..", "config", "crd", "bases") (or
// "../../config/crd"), as its envtest setup does.
func WithCRDDirectory(dirs ...string) Option {
	return func(o *options) { o.crdDirs = append(o.crdDirs, dirs...) }
}

// WithCRDs installs the given CustomResourceDefinitions (copies of them; the
// arguments are not modified). It may be given more than once.
func WithCRDs(objs ...*apiextensionsv1.CustomResourceDefinition) Option {
	return func(o *options) { o.crds = append(o.crds, objs...) }
}

// WithScheme sets the scheme of Env.Client and of managers from
// Env.NewManager. The default holds the client-go kinds and
// apiextensions.k8s.io/v1.
func WithScheme(s *runtime.Scheme) Option {
	return func(o *options) { o.scheme = s }
}

// WithBackend forces a backend instead of choosing by KUBEBUILDER_ASSETS.
func WithBackend(b Backend) Option {
	return func(o *options) { o.backend = b }
}

// WithFullAPI selects BackendFullAPI (the same as
// WithBackend(BackendFullAPI)): the kube-apiserver binary against the
// in-process etcd, serving built-in kinds as well as the CRDs. The binary
// comes from WithBinaryAssetsDirectory, else KUBEBUILDER_ASSETS, else
// testenv-assets' cache (KubeAPIServerPath); without one Start fails
// naming the command that builds it. Nothing is downloaded or built.
//
// It is never chosen by BackendAuto, even where the binary is cached: a
// test asks for the full API, and keeps the embedded server's start-up
// time otherwise.
func WithFullAPI() Option {
	return func(o *options) { o.backend = BackendFullAPI }
}

// WithBinaryAssetsDirectory sets the directory with kube-apiserver and etcd
// binaries for BackendEnvtest, overriding KUBEBUILDER_ASSETS. Under
// BackendAuto a non-empty directory selects BackendEnvtest. Under
// BackendFullAPI only its kube-apiserver is used.
func WithBinaryAssetsDirectory(dir string) Option {
	return func(o *options) {
		o.assetsDir, o.assetsFrom = dir, "WithBinaryAssetsDirectory"
		if dir == "" {
			o.assetsFrom = ""
		}
	}
}

// WithVerbose lets the servers' logs through (klog to stderr, etcd errors to
// the test log) or quiets them; the default comes from
// STATUSPATCH_TESTENV_VERBOSE.
func WithVerbose(v bool) Option {
	return func(o *options) { o.verbose = v }
}

// WithTimeout bounds start-up (default DefaultTimeout).
func WithTimeout(d time.Duration) Option {
	return func(o *options) {
		if d > 0 {
			o.timeout = d
		}
	}
}

func isTrue(s string) bool {
	switch s {
	case "1", "true", "TRUE", "True", "yes", "on":
		return true
	}
	return false
}

// WithoutStatusSchemaCheck turns off the check, at start-up, that every
// field of each installed kind's Go status type (for kinds in the scheme)
// exists in its CRD's status schema (CheckStatusSchema). Use it only for a
// test that installs a drifted CRD on purpose.
func WithoutStatusSchemaCheck() Option {
	return func(o *options) { o.skipSchemaCheck = true }
}
