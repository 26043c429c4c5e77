package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// builder builds and caches the assets.
type builder struct {
	root          string   // the cache: one folder per <version>-<goos>-<goarch>
	want          []string // the binaries asked for: kube-apiserver, and etcd with --etcd
	goos, goarch  string
	run           runFunc
	log           io.Writer     // progress, on stderr
	tick          time.Duration // how often a running step reports
	now           func() time.Time
	staleBuildAge time.Duration // unfinished builds older than this are removed
	// caller, when set, is the module to share compiled packages with
	// (align.go); nil builds at k8s.io/kubernetes's own versions.
	caller func(context.Context) (callerModule, error)
}

// servedVersions asks the module proxy (through the go command, so GOPROXY,
// GONOPROXY and GOFLAGS=-mod=mod apply as for any build) which versions of
// k8s.io/kubernetes it serves.
func (b *builder) servedVersions(ctx context.Context) ([]string, error) {
	dir, err := os.MkdirTemp("", "testenv-assets-list-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	out, err := b.run(ctx, dir, nil, "list", "-m", "-versions", "-json", "k8s.io/kubernetes")
	if err != nil {
		return nil, fmt.Errorf("listing the k8s.io/kubernetes versions the module proxy serves: %w", err)
	}
	var mod struct{ Versions []string }
	if err := json.Unmarshal(out, &mod); err != nil {
		return nil, fmt.Errorf("listing the k8s.io/kubernetes versions: reading go list's output: %w", err)
	}
	return mod.Versions, nil
}

// kubeGoModOf fetches k8s.io/kubernetes's go.mod at v (the .mod file
// alone, not the module).
func (b *builder) kubeGoModOf(ctx context.Context, dir string, v kubeVersion) (kubeGoMod, error) {
	out, err := b.run(ctx, dir, nil, "list", "-m", "-json", "k8s.io/kubernetes@"+v.Tag())
	if err != nil {
		return kubeGoMod{}, fmt.Errorf("fetching k8s.io/kubernetes %s's go.mod: %w", v.Tag(), err)
	}
	var mod struct{ GoMod string }
	if err := json.Unmarshal(out, &mod); err != nil {
		return kubeGoMod{}, fmt.Errorf("fetching k8s.io/kubernetes %s's go.mod: reading go list's output: %w", v.Tag(), err)
	}
	if mod.GoMod == "" {
		return kubeGoMod{}, fmt.Errorf("fetching k8s.io/kubernetes %s's go.mod: go list -m -json printed no GoMod file", v.Tag())
	}
	data, err := os.ReadFile(mod.GoMod)
	if err != nil {
		return kubeGoMod{}, fmt.Errorf("reading k8s.io/kubernetes %s's go.mod: %w", v.Tag(), err)
	}
	m, err := parseKubeGoMod(data)
	if err != nil {
		return kubeGoMod{}, fmt.Errorf("k8s.io/kubernetes %s: %w", v.Tag(), err)
	}
	return m, nil
}

// build returns v's folder, building first whatever of b.want the cache
// lacks. It builds into a temporary folder next to the cache's folders and
// moves the result into place (install) only when every binary is built,
// so an interrupted or failed build leaves nothing a later run takes as
// done.
func (b *builder) build(ctx context.Context, v kubeVersion) (string, error) {
	final := b.dir(v)
	need := missing(final, b.want)
	if len(need) == 0 {
		return final, nil
	}
	if err := os.MkdirAll(b.root, 0o755); err != nil {
		return "", fmt.Errorf("creating the cache folder: %w", err)
	}
	b.removeStale()
	tmp, err := os.MkdirTemp(b.root, ".building-"+b.dirName(v)+"-")
	if err != nil {
		return "", fmt.Errorf("creating a build folder in the cache: %w", err)
	}
	renamed := false
	defer func() {
		if !renamed {
			_ = os.RemoveAll(tmp)
		}
	}()
	start := b.now()
	src := filepath.Join(tmp, "src")
	b.logf("building %s %s from source through the Go module proxy; "+
		"this takes minutes the first time (next runs use %s)", strings.Join(need, " and "), v, final)
	p := &progress{b: b, start: start, steps: 1 + 2*len(need)}
	defer p.done() // a failed step's reports stop too
	p.step("reading k8s.io/kubernetes %s's go.mod", v.Tag())
	scratch := filepath.Join(src, kubeAPIServer)
	if err := os.MkdirAll(scratch, 0o755); err != nil {
		return "", err
	}
	m, err := b.kubeGoModOf(ctx, scratch, v)
	if err != nil {
		return "", err
	}
	var info strings.Builder
	var built []string
	for _, name := range need {
		dir := filepath.Join(src, name)
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return "", err
		}
		var goMod, what, pkg, ldflags string
		var kept []string // the binary's own modules: never the caller's versions
		switch name {
		case kubeAPIServer:
			goMod, what, pkg, ldflags = apiserverGoMod(v, m), "kube-apiserver "+v.Tag(), apiserverPkg, versionLdflags(v)
			kept = m.replaced()
			fmt.Fprintf(&info, "kube-apiserver: k8s.io/kubernetes %s (cmd/kube-apiserver), staging modules at %s\n", v.Tag(), v.StagingTag())
		case etcdBinary:
			goMod, what, pkg = etcdGoMod(m.Etcd, m.Go), "etcd "+m.Etcd, etcdPkg
			kept = []string{etcdProject}
			fmt.Fprintf(&info, "etcd: %s %s (k8s.io/kubernetes %s requires it)\n", etcdServer, m.Etcd, v.Tag())
		}
		aligned, err := b.compile(ctx, p, dir, what, pkg, filepath.Join(tmp, name), ldflags, goMod, kept, v)
		if err != nil {
			return "", err
		}
		if aligned != "" {
			fmt.Fprintf(&info, "  with %s\n", aligned)
		}
		built = append(built, what)
	}
	cgo, err := b.run(ctx, src, nil, "env", "CGO_ENABLED")
	if err != nil {
		return "", err
	}
	if err := os.RemoveAll(src); err != nil {
		return "", err
	}
	header := fmt.Sprintf("Built by testenv-assets from the Go module proxy for testenv's full API and envtest (KUBEBUILDER_ASSETS).\n"+
		"platform: %s/%s, CGO_ENABLED=%s\n", b.goos, b.goarch, strings.TrimSpace(string(cgo)))
	if err := os.WriteFile(filepath.Join(tmp, "BUILD-INFO"), []byte(header+info.String()), 0o644); err != nil {
		return "", err
	}
	if err := os.Chmod(tmp, 0o755); err != nil { // os.MkdirTemp made it 0700
		return "", err
	}
	if renamed, err = install(tmp, final, need, info.String()); err != nil {
		return "", err
	}
	b.logf("built %s in %s: %s", strings.Join(built, " and "), roundDuration(b.now().Sub(start)), final)
	return final, nil
}

// versionLdflags stamps the version a release build of kube-apiserver
// reports (kube-apiserver --version, /version).
func versionLdflags(v kubeVersion) string {
	var flags []string
	for _, pkg := range []string{"k8s.io/component-base/version", "k8s.io/client-go/pkg/version"} {
		flags = append(flags,
			"-X "+pkg+".gitVersion="+v.Tag(),
			"-X "+pkg+".gitMajor=1",
			fmt.Sprintf("-X %s.gitMinor=%d", pkg, v.Minor),
			"-X "+pkg+".gitTreeState=clean")
	}
	return strings.Join(flags, " ")
}

// compile writes goMod into the scratch module dir, adds the caller's
// versions of the modules it shares with the caller (align.go), resolves
// pkg's modules and packages, then builds it to out, reporting as it goes:
// two steps. When the build with the caller's versions fails, it builds
// again with goMod alone, saying so: sharing is a saving, never a reason
// not to build. aligned says what was added ("" for nothing).
func (b *builder) compile(ctx context.Context, p *progress, dir, name, pkg, out, ldflags, goMod string, kept []string, v kubeVersion) (aligned string, err error) {
	p.step("%s: resolving modules and packages", name)
	if err := os.WriteFile(filepath.Join(dir, "go.mod"), []byte(goMod), 0o644); err != nil {
		return "", err
	}
	var reqs []module
	if b.caller != nil {
		c, err := b.caller(ctx)
		if err != nil {
			b.logf("%s: building at k8s.io/kubernetes's own dependency versions, not sharing compiled packages with the module here: %v", name, err)
		} else {
			scratch, err := b.run(ctx, dir, p.line, "list", "-m", "-f", "{{.Path}} {{.Version}}", "all")
			if err != nil {
				return "", fmt.Errorf("resolving %s's modules (%s): %w", name, pkg, err)
			}
			if reqs = alignedRequires(scratch, kept, c, v); len(reqs) > 0 {
				if err := os.WriteFile(filepath.Join(dir, "go.mod"), []byte(withRequires(goMod, reqs, c.Main)), 0o644); err != nil {
					return "", err
				}
				aligned = fmt.Sprintf("%s's versions of %d modules (%s)", c.Main, len(reqs), moduleList(reqs))
			}
		}
	}
	err = b.compileIn(ctx, p, dir, name, pkg, out, ldflags)
	if err == nil || aligned == "" || ctx.Err() != nil {
		return aligned, err
	}
	b.logf("%s did not build with %s; building again at k8s.io/kubernetes's own dependency versions: %v", name, aligned, err)
	if err := os.WriteFile(filepath.Join(dir, "go.mod"), []byte(goMod), 0o644); err != nil {
		return "", err
	}
	p.addSteps(2)
	p.step("%s: resolving modules and packages, k8s.io/kubernetes's own versions", name)
	return "", b.compileIn(ctx, p, dir, name, pkg, out, ldflags)
}

// moduleList names a few of ms, for a log line.
func moduleList(ms []module) string {
	var names []string
	for i, m := range ms {
		if i == 3 {
			names = append(names, fmt.Sprintf("and %d more", len(ms)-3))
			break
		}
		names = append(names, m.Path+" "+m.Version)
	}
	return strings.Join(names, ", ")
}

// compileIn resolves pkg's packages in dir (its go.mod written), then
// builds it to out: the rest of the step compile began, and one more.
func (b *builder) compileIn(ctx context.Context, p *progress, dir, name, pkg, out, ldflags string) error {
	list, err := b.run(ctx, dir, p.line, "list", "-deps", pkg)
	if err != nil {
		return fmt.Errorf("resolving %s (%s): %w", name, pkg, err)
	}
	total := bytes.Count(list, []byte("\n"))
	p.step("%s: compiling", name)
	p.setTotal(total)
	args := []string{"build", "-v", "-o", out}
	if ldflags != "" {
		args = append(args, "-ldflags", ldflags)
	}
	args = append(args, pkg)
	if _, err := b.run(ctx, dir, p.line, args...); err != nil {
		return fmt.Errorf("building %s (%s): %w", name, pkg, err)
	}
	p.done()
	return nil
}
