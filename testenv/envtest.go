package testenv

import (
	"context"
	"fmt"

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
	if o.assetsDir == "" {
		return nil, nil, fmt.Errorf("testenv: envtest backend needs %s (or WithBinaryAssetsDirectory) naming a directory with kube-apiserver and etcd", EnvAssets)
	}
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

// envtestMapper serves the CRDs from the static mapper first and everything
// else (core kinds exist on a real kube-apiserver) from discovery.
func envtestMapper(cfg *rest.Config, static meta.RESTMapper) (meta.RESTMapper, error) {
	httpClient, err := rest.HTTPClientFor(cfg)
	if err != nil {
		return nil, fmt.Errorf("testenv: HTTP client: %w", err)
	}
	dynamicMapper, err := apiutil.NewDynamicRESTMapper(cfg, httpClient)
	if err != nil {
		return nil, fmt.Errorf("testenv: discovery RESTMapper: %w", err)
	}
	return meta.FirstHitRESTMapper{MultiRESTMapper: meta.MultiRESTMapper{static, dynamicMapper}}, nil
}
