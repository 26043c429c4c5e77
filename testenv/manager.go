package testenv

import (
	"fmt"
	"net/http"

	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/client-go/rest"
	"sigs.k8s.io/controller-runtime/pkg/manager"
)

// NewManager returns a controller-runtime manager for the server. Zero
// fields of opts are filled in: Scheme (env.Scheme), MapperProvider
// (env.Mapper), Metrics.BindAddress and HealthProbeBindAddress ("0", off).
// LeaderElection stays off unless opts turns it on (the embedded server
// serves no Leases). Non-zero fields of opts are kept.
func (e *Env) NewManager(opts manager.Options) (manager.Manager, error) {
	if opts.Scheme == nil {
		opts.Scheme = e.Scheme
	}
	if opts.MapperProvider == nil {
		mapper := e.Mapper
		opts.MapperProvider = func(*rest.Config, *http.Client) (meta.RESTMapper, error) { return mapper, nil }
	}
	if opts.Metrics.BindAddress == "" {
		opts.Metrics.BindAddress = "0"
	}
	if opts.HealthProbeBindAddress == "" {
		opts.HealthProbeBindAddress = "0"
	}
	m, err := manager.New(rest.CopyConfig(e.Config), opts)
	if err != nil {
		return nil, fmt.Errorf("testenv: manager: %w", err)
	}
	return m, nil
}
