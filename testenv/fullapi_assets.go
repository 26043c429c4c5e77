package testenv

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strconv"
	"strings"
)

// AssetsCacheDir is the folder, under os.UserCacheDir(), where
// cmd/testenv-assets caches its builds: one <version>-<goos>-<goarch>
// subfolder per release (1.35.4-linux-amd64) with kube-apiserver, and
// etcd when built with --etcd (envtest's route; the full API needs
// kube-apiserver alone).
const AssetsCacheDir = "statuspatch/testenv-assets"

// assetsCommand is what gets a kube-apiserver into that cache (built from
// the Go module proxy, minutes the first time; no etcd, which the full API
// does not run). Without a version it runs
// from any module that requires testenv, at the testenv version it requires;
// `module` builds the release of that module's k8s.io/apimachinery, sharing
// compiled packages with its tests (testenv/README.md).
const assetsCommand = "go run github.com/statuspatch/statuspatch/testenv/cmd/testenv-assets use -p path module"

// KubeAPIServerPath returns the kube-apiserver binary that the full-API
// backend (WithFullAPI) would run with these options, and where it came
// from, without starting anything. It looks, in this order, in the
// WithBinaryAssetsDirectory directory, in KUBEBUILDER_ASSETS, and in
// testenv-assets' cache (the newest release built for this platform). It
// never downloads or builds: the error names every place searched and the
// command that builds one. Tests use it to skip where there is no binary.
func KubeAPIServerPath(opts ...Option) (path, source string, err error) {
	o := newOptions(opts)
	return findKubeAPIServer(o)
}

func findKubeAPIServer(o options) (path, source string, err error) {
	if o.assetsDir != "" {
		// An explicit directory is used or refused, never skipped: a typo
		// should not silently run another release from the cache.
		p := filepath.Join(o.assetsDir, "kube-apiserver")
		if !isExecutable(p) {
			return "", "", fmt.Errorf("testenv: the full-API backend runs kube-apiserver from %s %q, which has no executable kube-apiserver; "+
				"point it at a directory that has one (%s prints one; setup-envtest use -p path too), or unset it to use testenv-assets' cache",
				o.assetsFrom, o.assetsDir, assetsCommand)
		}
		return p, o.assetsFrom + " " + o.assetsDir, nil
	}
	root, rootErr := assetsCacheRoot()
	if rootErr == nil {
		if dir, ok := newestCachedAssets(root, runtime.GOOS, runtime.GOARCH); ok {
			return filepath.Join(dir, "kube-apiserver"), "testenv-assets' cache " + dir, nil
		}
	}
	searched := "testenv-assets' cache (os.UserCacheDir failed: " + errString(rootErr) + ")"
	if rootErr == nil {
		searched = fmt.Sprintf("testenv-assets' cache %s (no <version>-%s-%s folder with an executable kube-apiserver)",
			root, runtime.GOOS, runtime.GOARCH)
	}
	return "", "", fmt.Errorf("testenv: the full-API backend needs a kube-apiserver binary and found none; searched: "+
		"WithBinaryAssetsDirectory (not given), %s (not set), %s. "+
		"Build one into that cache with `%s` (from a module that requires testenv; in testenv itself: go run ./cmd/testenv-assets use -p path 1.35.x; "+
		"minutes the first time, nothing is downloaded but Go modules), or pass a directory holding one with "+
		"WithBinaryAssetsDirectory or %s (setup-envtest use -p path prints one)",
		EnvAssets, searched, assetsCommand, EnvAssets)
}

func errString(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

func assetsCacheRoot() (string, error) {
	dir, err := os.UserCacheDir()
	if err != nil {
		return "", err
	}
	return filepath.Join(dir, filepath.FromSlash(AssetsCacheDir)), nil
}

// newestCachedAssets returns the folder of the newest release in root
// (testenv-assets' layout, 1.N.P-goos-goarch) that has an executable
// kube-apiserver.
func newestCachedAssets(root, goos, goarch string) (string, bool) {
	entries, err := os.ReadDir(root)
	if err != nil {
		return "", false
	}
	type found struct {
		v   [3]int
		dir string
	}
	var all []found
	suffix := "-" + goos + "-" + goarch
	for _, e := range entries {
		name := e.Name()
		if !e.IsDir() || !strings.HasSuffix(name, suffix) {
			continue
		}
		v, ok := parseRelease(strings.TrimSuffix(name, suffix))
		dir := filepath.Join(root, name)
		if ok && isExecutable(filepath.Join(dir, "kube-apiserver")) {
			all = append(all, found{v, dir})
		}
	}
	if len(all) == 0 {
		return "", false
	}
	sort.Slice(all, func(i, j int) bool {
		a, b := all[i].v, all[j].v
		for k := range a {
			if a[k] != b[k] {
				return a[k] > b[k]
			}
		}
		return false
	})
	return all[0].dir, true
}

// parseRelease parses "1.35.4".
func parseRelease(s string) ([3]int, bool) {
	var v [3]int
	parts := strings.Split(s, ".")
	if len(parts) != 3 {
		return v, false
	}
	for i, p := range parts {
		n, err := strconv.Atoi(p)
		if err != nil || n < 0 || strconv.Itoa(n) != p {
			return v, false
		}
		v[i] = n
	}
	return v, true
}

func isExecutable(path string) bool {
	info, err := os.Stat(path)
	return err == nil && info.Mode().IsRegular() && info.Mode().Perm()&0o111 != 0
}
