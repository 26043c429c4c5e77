package testenv

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/client-go/rest"
	"k8s.io/utils/ptr"
	"sigs.k8s.io/controller-runtime/pkg/client/apiutil"
	"sigs.k8s.io/controller-runtime/pkg/envtest"
)

// startEnvtest runs kube-apiserver and etcd binaries from o.assetsDir via
// controller-runtime's envtest, which also installs the CRDs and waits for
// them in discovery. It never downloads anything and never uses an existing
// cluster, whatever USE_EXISTING_CLUSTER says.
func startEnvtest(_ context.Context, o options, crds []*apiextensionsv1.CustomResourceDefinition) (*rest.Config, func(), error) {
	copies := make([]*apiextensionsv1.CustomResourceDefinition, len(crds))
	for i, crd := range crds {
		copies[i] = crd.DeepCopy()
	}
	env := &envtest.Environment{
		CRDs:                     copies,
		Scheme:                   o.scheme,
		BinaryAssetsDirectory:    o.assetsDir,
		DownloadBinaryAssets:     false,
		UseExistingCluster:       ptr.To(false),
		ErrorIfCRDPathMissing:    true,
		ControlPlaneStartTimeout: o.timeout,
		AttachControlPlaneOutput: o.verbose,
	}
	cfg, err := env.Start()
	if err != nil {
		_ = env.Stop()
		return nil, nil, fmt.Errorf("testenv: starting envtest from %q: %w", o.assetsDir, err)
	}
	stop := func() { _ = env.Stop() }
	return rest.CopyConfig(cfg), stop, nil
}

// envtestBinaries are the programs envtest runs from the assets directory.
var envtestBinaries = []string{"kube-apiserver", "etcd"}

// checkEnvtestAssets rejects, before anything starts, an envtest backend
// without a directory holding kube-apiserver and etcd, naming where the
// directory came from and how to get the embedded server instead.
func checkEnvtestAssets(o options) error {
	if o.assetsDir == "" {
		return fmt.Errorf("testenv: the envtest backend needs %s (or WithBinaryAssetsDirectory) naming a directory with %s; "+
			"without binaries use the embedded backend (the default when %s is unset)",
			EnvAssets, strings.Join(envtestBinaries, " and "), EnvAssets)
	}
	var missing []string
	for _, name := range envtestBinaries {
		info, err := os.Stat(filepath.Join(o.assetsDir, name))
		if err != nil || info.IsDir() || info.Mode().Perm()&0o111 == 0 {
			missing = append(missing, name)
		}
	}
	if len(missing) == 0 {
		return nil
	}
	return fmt.Errorf("testenv: %s %q has no executable %s, so the envtest backend cannot start "+
		"(it chose envtest because %s); point it at a directory with %s (setup-envtest use -p path prints one; testenv-assets use --etcd -p path builds one from the module proxy), "+
		"or pass testenv.WithBackend(testenv.BackendEmbedded) to run the in-process server whatever %s says",
		o.assetsFrom, o.assetsDir, strings.Join(missing, " or "), o.backendReason,
		strings.Join(envtestBinaries, " and "), EnvAssets)
}

// envtestMapper serves the CRDs from the static mapper first and everything
// else (core kinds exist on a real kube-apiserver) from discovery. It is a
// pointer: a FirstHitRESTMapper value holds a slice, so comparing two
// RESTMapper interfaces holding one (mgr.GetRESTMapper() == env.Mapper)
// would panic.
func envtestMapper(cfg *rest.Config, static meta.RESTMapper) (meta.RESTMapper, error) {
	httpClient, err := rest.HTTPClientFor(cfg)
	if err != nil {
		return nil, fmt.Errorf("testenv: HTTP client: %w", err)
	}
	dynamicMapper, err := apiutil.NewDynamicRESTMapper(cfg, httpClient)
	if err != nil {
		return nil, fmt.Errorf("testenv: discovery RESTMapper: %w", err)
	}
	return &meta.FirstHitRESTMapper{MultiRESTMapper: meta.MultiRESTMapper{static, dynamicMapper}}, nil
}
