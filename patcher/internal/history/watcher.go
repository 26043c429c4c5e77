package history

import (
	"net/http"

	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/client-go/rest"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/statuspatch/statuspatch/patcher/internal/wire"
)

// restManager is the part of a controller-runtime manager (or cluster)
// that a watching client is made from.
type restManager interface {
	GetConfig() *rest.Config
	GetHTTPClient() *http.Client
	GetScheme() *runtime.Scheme
	GetRESTMapper() meta.RESTMapper
}

// WatcherFor returns a client that watches through mgr's REST config, HTTP
// client, scheme and mapper, or nil when mgr does not expose them or the
// client cannot be made.
func WatcherFor(mgr any) client.WithWatch {
	m, ok := mgr.(restManager)
	if !ok {
		return nil
	}
	cfg, hc, scheme, mapper := m.GetConfig(), m.GetHTTPClient(), m.GetScheme(), m.GetRESTMapper()
	if cfg == nil || hc == nil || scheme == nil || wire.IsNil(mapper) {
		return nil
	}
	w, err := client.NewWithWatch(cfg, client.Options{HTTPClient: hc, Scheme: scheme, Mapper: mapper})
	if err != nil {
		return nil
	}
	return w
}
