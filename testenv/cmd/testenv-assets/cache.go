package main

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// The binaries a cache folder may hold. testenv's full API (WithFullAPI)
// runs kube-apiserver alone against its in-process etcd; controller-runtime's
// envtest (KUBEBUILDER_ASSETS, testenv's envtest backend) runs both.
const (
	kubeAPIServer = "kube-apiserver"
	etcdBinary    = "etcd"
)

// wanted is what a run asks for: kube-apiserver, and etcd with --etcd.
func wanted(etcd bool) []string {
	if etcd {
		return []string{kubeAPIServer, etcdBinary}
	}
	return []string{kubeAPIServer}
}

// dirName is a version's folder in the cache, as setup-envtest names them.
func (b *builder) dirName(v kubeVersion) string {
	return fmt.Sprintf("%s-%s-%s", v, b.goos, b.goarch)
}

func (b *builder) dir(v kubeVersion) string { return filepath.Join(b.root, b.dirName(v)) }

// missing lists the names that dir lacks as executable files. A folder
// appears in the cache only by a rename after a build succeeded, and a
// binary is added to one only by a rename too, so this is a check against
// hand-made damage and against builds that asked for less (no etcd), not
// against half-finished builds.
func missing(dir string, names []string) []string {
	var out []string
	for _, name := range names {
		if !isExecutable(filepath.Join(dir, name)) {
			out = append(out, name)
		}
	}
	return out
}

func isExecutable(path string) bool {
	info, err := os.Stat(path)
	return err == nil && info.Mode().IsRegular() && info.Mode().Perm()&0o111 != 0
}

// complete reports whether dir holds every binary b was asked for.
func (b *builder) complete(dir string) bool { return len(missing(dir, b.want)) == 0 }

// cached lists the builds in the cache for this platform that hold what b
// was asked for, newest first.
func (b *builder) cached() []kubeVersion {
	entries, err := os.ReadDir(b.root)
	if err != nil {
		return nil
	}
	suffix := "-" + b.goos + "-" + b.goarch
	var vs []kubeVersion
	for _, e := range entries {
		name := e.Name()
		if !e.IsDir() || !strings.HasSuffix(name, suffix) {
			continue
		}
		v, ok := parseTag("v" + strings.TrimSuffix(name, suffix))
		if ok && b.dirName(v) == name && b.complete(filepath.Join(b.root, name)) {
			vs = append(vs, v)
		}
	}
	sort.Slice(vs, func(i, j int) bool { return vs[j].less(vs[i]) })
	return vs
}

// newestCached is the newest complete build q matches.
func (b *builder) newestCached(q query) (kubeVersion, bool) {
	for _, v := range b.cached() {
		if q.matches(v) {
			return v, true
		}
	}
	return kubeVersion{}, false
}

// removeStale deletes unfinished build folders old enough that no build is
// still writing them (a killed run cannot remove its own).
func (b *builder) removeStale() {
	entries, err := os.ReadDir(b.root)
	if err != nil {
		return
	}
	for _, e := range entries {
		if !e.IsDir() || !strings.HasPrefix(e.Name(), ".building-") {
			continue
		}
		info, err := e.Info()
		if err == nil && b.now().Sub(info.ModTime()) > b.staleBuildAge {
			_ = os.RemoveAll(filepath.Join(b.root, e.Name()))
		}
	}
}

// install puts a finished build (tmp, holding built and BUILD-INFO) in
// place as final. A new version's folder is renamed into place whole; a
// folder that is already there (an earlier run built kube-apiserver
// alone, or another run finished first) gets each binary it lacks by a
// rename, and BUILD-INFO gains their lines. It reports whether tmp itself
// became final.
func install(tmp, final string, built []string, info string) (bool, error) {
	if err := os.Rename(tmp, final); err == nil {
		return true, nil
	} else if _, statErr := os.Stat(final); statErr != nil {
		return false, fmt.Errorf("moving the build into the cache as %s: %w", final, err)
	}
	var added []string
	for _, name := range built {
		if isExecutable(filepath.Join(final, name)) { // another run built it first
			continue
		}
		if err := os.Rename(filepath.Join(tmp, name), filepath.Join(final, name)); err != nil {
			return false, fmt.Errorf("adding %s to %s: %w", name, final, err)
		}
		added = append(added, name)
	}
	if len(added) == 0 {
		return false, nil
	}
	f, err := os.OpenFile(filepath.Join(final, "BUILD-INFO"), os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	if err != nil {
		return false, fmt.Errorf("adding %s to %s's BUILD-INFO: %w", strings.Join(added, " and "), final, err)
	}
	_, err = fmt.Fprint(f, info)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return false, fmt.Errorf("adding %s to %s's BUILD-INFO: %w", strings.Join(added, " and "), final, err)
	}
	return false, nil
}
