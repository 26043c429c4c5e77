package patcher

import (
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/statuspatch/statuspatch/patcher/internal/history"
)

// Manager is the part of a controller-runtime manager.Manager (or
// cluster.Cluster) that ForManager needs. ForManager also uses GetConfig,
// GetHTTPClient, GetScheme and GetRESTMapper when mgr has them (see
// WithWatcher).
type Manager interface {
	GetClient() client.Client
	GetAPIReader() client.Reader
}

// Client is a client.Client that carries Patcher options: New, Fetch and
// every generated New/Fetch<Kind>StatusPatcher given one apply its options
// first, then their own. It works everywhere a client.Client does (it is the
// client it wraps), the way controller-runtime's client.WithFieldOwner
// carries a default for every call. One call differs: when its options
// carry an API reader (ForManager's do), Get also reads this process's own
// writes past a lagging cache (see Client.Get).
type Client struct {
	client.Client
	opts   []Option
	reader client.Reader // the API reader the options carry, or nil
}

// ForManager returns the manager's client (mgr.GetClient()) carrying the
// safe defaults for every Patcher made from it: the manager's uncached
// reader (WithAPIReader(mgr.GetAPIReader())) for Retry, re-bases and stale
// reads; when mgr also has GetConfig, GetHTTPClient, GetScheme and
// GetRESTMapper (a controller-runtime manager.Manager or cluster.Cluster
// does), a watching client made from them once (WithWatcher), which tells
// a write stored and overwritten before client-go's resend from another
// writer's Conflict; then opts (WithFieldOwner, say). Metrics go to controller-runtime's
// registry, which the manager serves, unless opts say otherwise. Its Get
// reads this process's own writes: an object a Patcher wrote, read from a
// cache still older than that write, is read again through the API reader
// (Client.Get), so a re-Get after a status write kept by hand is fresh.
// Make it once, when the reconciler is set up:
//
//	r := &RolloutReconciler{Client: patcher.ForManager(mgr, patcher.WithFieldOwner("rollout-controller"))}
//	p, err := patchers.FetchRolloutStatusPatcher(ctx, r.Client, req.NamespacedName)
//
// A nil mgr gives a Client whose Patchers report ErrInvalidInput.
func ForManager(mgr Manager, opts ...Option) *Client {
	if isNil(mgr) {
		return &Client{}
	}
	defaults := []Option{WithAPIReader(mgr.GetAPIReader())}
	if w := history.WatcherFor(mgr); w != nil {
		defaults = append(defaults, WithWatcher(w))
	}
	return WithDefaults(mgr.GetClient(), append(defaults, opts...)...)
}

// WithDefaults returns c carrying opts for every Patcher made from it, like
// ForManager without a manager. Given a *Client, it adds opts after that
// Client's own. With WithAPIReader among them, its Get reads this process's
// own writes as ForManager's does; without, Get is c's.
func WithDefaults(c client.Client, opts ...Option) *Client {
	inner, base := withDefaults(c, nil)
	all := append(base, opts...)
	return &Client{Client: inner, opts: all, reader: apiReaderOf(all)}
}

// Options returns the options c carries, in the order they apply.
func (c *Client) Options() []Option {
	if c == nil {
		return nil
	}
	return append([]Option(nil), c.opts...)
}

// withDefaults unwraps a *Client into the client it carries and its
// options followed by opts; any other client is returned as it is.
func withDefaults(c client.Client, opts []Option) (client.Client, []Option) {
	d, ok := c.(*Client)
	if !ok {
		return c, opts
	}
	if d == nil {
		return nil, opts
	}
	return d.Client, append(d.Options(), opts...)
}
