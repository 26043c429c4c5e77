package patcher_test

import (
	"net/http"
	"testing"

	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/rest"

	"github.com/statuspatch/statuspatch/patcher"
)

// restFakeManager is fakeManager with what a controller-runtime manager
// also exposes: its REST config, HTTP client, scheme and mapper.
type restFakeManager struct {
	fakeManager
	cfg    *rest.Config
	mapper meta.RESTMapper
	scheme *runtime.Scheme
}

func (m restFakeManager) GetConfig() *rest.Config        { return m.cfg }
func (m restFakeManager) GetHTTPClient() *http.Client    { return http.DefaultClient }
func (m restFakeManager) GetScheme() *runtime.Scheme     { return m.scheme }
func (m restFakeManager) GetRESTMapper() meta.RESTMapper { return m.mapper }

// ForManager adds a watcher (WithWatcher) when the manager exposes its
// REST config, and none when it does not or exposes a nil part; the
// Manager interface itself still asks for GetClient and GetAPIReader only.
func TestForManagerMakesAWatcher(t *testing.T) {
	c, _, _ := newClient(t)
	plain := fakeManager{client: c, reader: c}
	mapper := meta.NewDefaultRESTMapper([]schema.GroupVersion{{Group: "apps", Version: "v1"}})
	cfg := &rest.Config{Host: "https://127.0.0.1:1"}
	for _, tc := range []struct {
		name string
		mgr  patcher.Manager
		want int
	}{
		{"only the Manager interface", plain, 1},
		{"a manager's REST config", restFakeManager{fakeManager: plain, cfg: cfg, mapper: mapper, scheme: scheme(t)}, 2},
		{"a nil config", restFakeManager{fakeManager: plain, mapper: mapper, scheme: scheme(t)}, 1},
		{"a nil mapper", restFakeManager{fakeManager: plain, cfg: cfg, scheme: scheme(t)}, 1},
	} {
		if got := len(patcher.ForManager(tc.mgr).Options()); got != tc.want {
			t.Errorf("%s: ForManager carries %d options, want %d (API reader, and a watcher when it can make one)", tc.name, got, tc.want)
		}
	}
}
