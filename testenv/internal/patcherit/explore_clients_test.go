package patcherit_test

// explore.Clients with the patcher: here, not in explore's own tests, so
// that explore's test binary does not link the runtime and a change to the
// runtime does not run the explorer's tests again at every line
// (explore's TestExploreTestsDoNotImportTheRuntime).

import (
	"testing"

	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/fake"

	"github.com/statuspatch/statuspatch/patcher"
	"github.com/statuspatch/statuspatch/testenv/explore"
)

var _ patcher.Manager = explore.Clients{}

// A reconciler set up with patcher.ForManager gets, from explore.Clients,
// the explorer's client to act through and its API reader as the patchers'
// default, as it gets the manager's in production.
func TestClientsFitsForManager(t *testing.T) {
	cached := fake.NewClientBuilder().Build()
	var api client.Reader = fake.NewClientBuilder().Build()
	m := explore.Clients{Client: cached, APIReader: api}
	if m.GetClient() != cached || m.GetAPIReader() != api {
		t.Fatalf("Clients{c, api} gives GetClient %p and GetAPIReader %p, want %p and %p", m.GetClient(), m.GetAPIReader(), cached, api)
	}
	c := patcher.ForManager(m)
	if c.Client != cached {
		t.Errorf("patcher.ForManager(Clients{c, api}) wraps %T, want the explorer's client", c.Client)
	}
	if n := len(c.Options()); n != 1 {
		t.Errorf("patcher.ForManager(Clients{c, api}) carries %d options, want 1 (the API reader)", n)
	}
}
