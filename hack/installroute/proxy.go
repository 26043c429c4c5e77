package installroute

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sync"

	"github.com/statuspatch/statuspatch/hack/internal/gocmd"
	"github.com/statuspatch/statuspatch/hack/internal/releaseproxy"
)

// A Proxy is the module proxy of this checkout the routes share: its
// version, the go command's settings for it, and the release cache's lock,
// held from OpenProxy to Close (hack/internal/releaseproxy: the runs that
// share the module cache take turns on it).
type Proxy struct {
	Version  string
	Settings []releaseproxy.Setting

	lock   *releaseproxy.Lock
	caches *releaseproxy.Caches // the caches the proxy's copies were dropped from
	once   sync.Once
}

// OpenProxy takes the release cache's lock (saying so on stderr while
// another run holds it) and builds the proxy of root's modules at version
// (default: the one testenv/go.mod requires) in work/proxy, its module
// list and the go commands' output to stdout, stderr.
func OpenProxy(root, version, work string, stdout, stderr io.Writer) (*Proxy, error) {
	if version == "" {
		v, err := requiredVersion(filepath.Join(root, "testenv", "go.mod"))
		if err != nil {
			return nil, err
		}
		version = v
	}
	cache, err := releaseproxy.CacheDir(os.Getenv)
	if err != nil {
		return nil, err
	}
	p := &Proxy{Version: version}
	p.lock, err = releaseproxy.LockDir(cache, func() { fmt.Fprintln(stderr, releaseproxy.Waiting(cache)) })
	if err != nil {
		return nil, err
	}
	fmt.Fprintf(stdout, "module proxy of %s at %s:\n", root, version)
	g := gocmd.Runner{Root: ".", Stdout: stdout, Stderr: stderr}
	settings, caches, err := releaseproxy.Proxy{Repo: root, Version: version, Work: work, Listing: stdout}.Use(g)
	p.caches = &caches
	if err != nil {
		return nil, errors.Join(fmt.Errorf("could not build the module proxy of %s at %s: %w", root, version, err), p.Close())
	}
	p.Settings = settings
	return p, nil
}

// Close drops the proxy's copies from the module cache (under the lock,
// so that a later project of the caller's downloads a published release
// instead) and releases the lock. It runs once.
func (p *Proxy) Close() error {
	var errs []error
	p.once.Do(func() {
		if p.caches != nil && p.caches.ModCache != "" {
			errs = append(errs, releaseproxy.Drop(*p.caches))
		}
		errs = append(errs, p.lock.Unlock())
	})
	return errors.Join(errs...)
}
