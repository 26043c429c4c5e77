// Package releaseproxy points the go command at a file-based proxy of this
// repository's modules at one version (hack/internal/modproxy), as a user's
// go command would see a published release: the proxy of the install,
// adopt and newcomer routes (hack/installroute, hack/e2e), of hack/gomod.sh
// (hack/gomod) and of the release route (hack/releaseroute).
//
// Env is the environment the go command runs in then: GOWORK=off; GOPROXY
// the proxy, then the module cache's download directory (offline copies of
// third-party modules), then the caller's GOPROXY; GONOSUMDB skipping the
// checksum database for this repository only; GOMODCACHE the caller's;
// -modcacherw; the caller's GODEBUG, kept.
//
// Use drops, from that module cache, the copies of the module versions its
// proxy serves (an earlier build of the same version, or a download of it),
// so a rebuilt version never meets a stale one; Drop, called in clean-up,
// drops those copies again, so that a project of the caller's that later
// requires a published release of ours downloads it instead of meeting
// this checkout's build. A drop removes those module@version folders and
// their downloads, nothing else: the module cache is shared (other
// projects, other checkouts' and CI's runs, a published release of ours a
// project requires), so a version of ours the proxy did not serve stays.
// Each drop also drops the go command's module index of those copies from
// the build cache (index.go): the go command indexes a module-cache folder
// once, by its path, taking a version's files to never change, and a
// rebuilt version changes them (until then, every route ran with
// GODEBUG=goindex=0, which cost each go command of a user's project most
// of its own CPU time: docs/benchmarks.md). This repository's own builds
// never read our modules from the module cache: the workspace and every
// module in this checkout replace them by their directories. One
// module cache means one source directory per third-party module, so the
// build cache serves these runs what make test and make test-compat
// compiled at the same versions with the same Go (a module cache of their
// own compiled the Kubernetes dependencies once more: docs/benchmarks.md).
//
// Runs sharing that cache (hack/install-test.sh, hack/adopt-lines.sh,
// hack/newcomer-test.sh, hack/gomod.sh, the release; two checkouts, a
// release while CI's install test runs) take turns under an exclusive flock
// on the lock file of CacheDir (Lock). Without it, one run dropped the
// version it served from the cache while another built from it ("cannot
// find package").
package releaseproxy

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/statuspatch/statuspatch/hack/internal/gocmd"
	"github.com/statuspatch/statuspatch/hack/internal/modproxy"
)

// Module is this repository's root module. GONOSUMDB names it.
const Module = "github.com/statuspatch/statuspatch"

// CacheDir is the folder of the lock the runs sharing the module cache take
// turns on: $STATUSPATCH_INSTALL_CACHE, else
// ${XDG_CACHE_HOME:-$HOME/.cache}/statuspatch-install-test.
func CacheDir(getenv func(string) string) (string, error) {
	if d := getenv("STATUSPATCH_INSTALL_CACHE"); d != "" {
		return d, nil
	}
	base := getenv("XDG_CACHE_HOME")
	if base == "" {
		home := getenv("HOME")
		if home == "" {
			return "", errors.New("neither STATUSPATCH_INSTALL_CACHE, XDG_CACHE_HOME nor HOME is set: no folder for the release cache's lock")
		}
		base = filepath.Join(home, ".cache")
	}
	return filepath.Join(base, "statuspatch-install-test"), nil
}

// A Setting is one variable of the go command's environment.
type Setting struct{ Key, Value string }

// Env is the go command's environment for the proxy in proxyDir over the
// module cache modcache: upstream is the caller's GOPROXY, goflags the
// caller's GOFLAGS, kept (the caller's GODEBUG is left as it is).
func Env(upstream, modcache, proxyDir, goflags string) []Setting {
	return []Setting{
		{"GOMODCACHE", modcache},
		{"GOWORK", "off"},
		{"GOPROXY", "file://" + proxyDir + ",file://" + filepath.Join(modcache, "cache", "download") + "," + upstream},
		{"GONOSUMDB", Module},
		{"GOFLAGS", goflags + " -modcacherw"},
	}
}

// Environ is env as os/exec takes it: KEY=VALUE.
func Environ(env []Setting) []string {
	var kv []string
	for _, s := range env {
		kv = append(kv, s.Key+"="+s.Value)
	}
	return kv
}

// GoEnv reads the go command's GOPROXY, GOMODCACHE, GOCACHE and
// GOVERSION as the caller's environment has them (GOWORK=off), from
// folder dir; the Go versions are GOVERSION's and those of the toolchains
// in the module cache (GOTOOLCHAIN's downloads), each of which may have
// indexed a module there.
func GoEnv(g gocmd.Go, dir string) (upstream string, c Caches, err error) {
	out, err := g.Output(gocmd.Cmd{Dir: dir, Verb: []string{"env", "GOPROXY", "GOMODCACHE", "GOCACHE", "GOVERSION"}})
	if err != nil {
		return "", Caches{}, err
	}
	f := strings.Split(strings.TrimRight(out, "\n"), "\n")
	if len(f) != 4 || f[1] == "" {
		return "", Caches{}, fmt.Errorf("go env GOPROXY GOMODCACHE GOCACHE GOVERSION printed %q, want four lines", out)
	}
	c = Caches{ModCache: f[1], GoCache: f[2], GoVersions: toolchainsIn(f[1], f[3])}
	return f[0], c, nil
}

// A Proxy is one use of the proxy: the repository and version it serves,
// the folder it is written in (Work/proxy), and the caller's environment.
type Proxy struct {
	Repo, Version, Work string
	Getenv              func(string) string // GOFLAGS, GODEBUG; nil: os.Getenv
	Listing             io.Writer           // module@version, one a line, as the proxy is built; nil: discarded
}

// Use writes the proxy in p.Work/proxy afresh, drops from the caller's
// module cache the copies of the module versions it serves (an earlier
// build of the same version, a download of a published one) with their
// module index (Drop), and returns the go command's environment for it and
// the caches with what it served (Caches.Served), for Drop in clean-up.
// The caller holds the lock.
func (p Proxy) Use(g gocmd.Go) ([]Setting, Caches, error) {
	getenv, listing := p.Getenv, p.Listing
	if getenv == nil {
		getenv = os.Getenv
	}
	if listing == nil {
		listing = io.Discard
	}
	upstream, c, err := GoEnv(g, ".")
	if err != nil {
		return nil, Caches{}, err
	}
	dir := filepath.Join(p.Work, "proxy")
	if err := os.RemoveAll(dir); err != nil {
		return nil, Caches{}, fmt.Errorf("removing the earlier proxy %s: %w", dir, err)
	}
	var served strings.Builder
	if err := modproxy.Build(p.Repo, p.Version, dir, io.MultiWriter(listing, &served)); err != nil {
		return nil, Caches{}, fmt.Errorf("the module proxy of %s at %s: %w", p.Repo, p.Version, err)
	}
	c.Served = strings.Fields(served.String())
	if err := Drop(c); err != nil {
		return nil, Caches{}, err
	}
	return Env(upstream, c.ModCache, dir, getenv("GOFLAGS")), c, nil
}
