package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"time"
)

// binaries are the programs envtest runs from KUBEBUILDER_ASSETS.
var binaries = []string{"kube-apiserver", "etcd"}

// runFunc runs the go command with args in dir and returns its standard
// output; each line of its standard error goes to stderrLine. A failure's
// error carries the tail of that output.
type runFunc func(ctx context.Context, dir string, stderrLine func(string), args ...string) ([]byte, error)

// builder builds and caches the assets.
type builder struct {
	root          string // the cache: one folder per <version>-<goos>-<goarch>
	goos, goarch  string
	run           runFunc
	log           io.Writer     // progress, on stderr
	tick          time.Duration // how often a running step reports
	now           func() time.Time
	staleBuildAge time.Duration // unfinished builds older than this are removed
}

// dirName is a version's folder in the cache, as setup-envtest names them.
func (b *builder) dirName(v kubeVersion) string {
	return fmt.Sprintf("%s-%s-%s", v, b.goos, b.goarch)
}

func (b *builder) dir(v kubeVersion) string { return filepath.Join(b.root, b.dirName(v)) }

// complete reports whether dir holds every binary, executable. A folder
// appears in the cache only by a rename after a build succeeded, so this is
// a check against hand-made damage, not against half-finished builds.
func complete(dir string) bool {
	for _, name := range binaries {
		info, err := os.Stat(filepath.Join(dir, name))
		if err != nil || !info.Mode().IsRegular() || info.Mode().Perm()&0o111 == 0 {
			return false
		}
	}
	return true
}

// cached lists the complete builds in the cache for this platform, newest
// first.
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
		if ok && b.dirName(v) == name && complete(filepath.Join(b.root, name)) {
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

// build returns v's folder, building it first unless the cache has it.
// It builds into a temporary folder next to the cache's folders and renames
// it into place only when both binaries are built, so an interrupted or
// failed build leaves nothing a later run takes as done.
func (b *builder) build(ctx context.Context, v kubeVersion) (string, error) {
	final := b.dir(v)
	if complete(final) {
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
	apiserverSrc, etcdSrc := filepath.Join(src, "kube-apiserver"), filepath.Join(src, "etcd")
	for _, d := range []string{apiserverSrc, etcdSrc} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			return "", err
		}
	}

	b.logf("building kube-apiserver %s and its etcd from source through the Go module proxy; "+
		"this takes minutes the first time (next runs use %s)", v, final)
	p := &progress{b: b, start: start, steps: 5}
	defer p.done() // a failed step's reports stop too
	p.step("reading k8s.io/kubernetes %s's go.mod", v.Tag())
	m, err := b.kubeGoModOf(ctx, apiserverSrc, v)
	if err != nil {
		return "", err
	}
	if err := os.WriteFile(filepath.Join(etcdSrc, "go.mod"), []byte(etcdGoMod(m.Etcd, m.Go)), 0o644); err != nil {
		return "", err
	}
	if err := os.WriteFile(filepath.Join(apiserverSrc, "go.mod"), []byte(apiserverGoMod(v, m)), 0o644); err != nil {
		return "", err
	}

	etcdName := "etcd " + m.Etcd
	if err := b.compile(ctx, p, etcdSrc, etcdName, etcdPkg, filepath.Join(tmp, "etcd"), ""); err != nil {
		return "", err
	}
	apiserverName := "kube-apiserver " + v.Tag()
	if err := b.compile(ctx, p, apiserverSrc, apiserverName, apiserverPkg, filepath.Join(tmp, "kube-apiserver"), versionLdflags(v)); err != nil {
		return "", err
	}

	if err := os.RemoveAll(src); err != nil {
		return "", err
	}
	info := fmt.Sprintf("Built by testenv-assets from the Go module proxy for envtest (KUBEBUILDER_ASSETS).\n"+
		"kube-apiserver: k8s.io/kubernetes %s (cmd/kube-apiserver), staging modules at %s\n"+
		"etcd: %s %s (k8s.io/kubernetes %s requires it)\n"+
		"platform: %s/%s, CGO_ENABLED=0\n", v.Tag(), v.StagingTag(), etcdServer, m.Etcd, v.Tag(), b.goos, b.goarch)
	if err := os.WriteFile(filepath.Join(tmp, "BUILD-INFO"), []byte(info), 0o644); err != nil {
		return "", err
	}
	if err := os.Chmod(tmp, 0o755); err != nil { // os.MkdirTemp made it 0700
		return "", err
	}
	if err := os.Rename(tmp, final); err != nil {
		if complete(final) { // another run finished the same build first
			return final, nil
		}
		return "", fmt.Errorf("moving the build into the cache: %w", err)
	}
	renamed = true
	b.logf("built kube-apiserver %s and etcd %s in %s: %s", v.Tag(), m.Etcd, roundDuration(b.now().Sub(start)), final)
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

// compile resolves pkg's modules and packages in the scratch module dir,
// then builds it to out, reporting as it goes: two steps.
func (b *builder) compile(ctx context.Context, p *progress, dir, name, pkg, out, ldflags string) error {
	p.step("%s: resolving modules and packages", name)
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

func (b *builder) logf(format string, args ...any) {
	fmt.Fprintf(b.log, "testenv-assets: "+format+"\n", args...)
}

// progress reports the running step: its name, packages compiled and
// modules downloaded so far, and the time spent, every b.tick.
type progress struct {
	b     *builder
	start time.Time
	steps int

	mu        sync.Mutex
	n         int
	name      string
	stepStart time.Time
	total     int // packages the step may compile, 0 if not compiling
	compiled  int
	downloads int
	stop      chan struct{}
}

func (p *progress) step(format string, args ...any) {
	p.done()
	p.mu.Lock()
	defer p.mu.Unlock()
	p.n++
	p.name = fmt.Sprintf(format, args...)
	p.stepStart = p.b.now()
	p.total, p.compiled, p.downloads = 0, 0, 0
	p.stop = make(chan struct{})
	p.b.logf("[%d/%d] %s (%s elapsed)", p.n, p.steps, p.name, roundDuration(p.stepStart.Sub(p.start)))
	if p.b.tick > 0 {
		go p.report(p.stop)
	}
}

func (p *progress) setTotal(n int) {
	p.mu.Lock()
	p.total = n
	p.mu.Unlock()
}

// line counts a line of the go command's standard error: "go: downloading
// M V", or under go build -v the import path of a package being compiled.
func (p *progress) line(s string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	switch {
	case strings.HasPrefix(s, "go: downloading "):
		p.downloads++
	case p.total > 0 && s != "" && !strings.ContainsAny(s, " \t:#"):
		p.compiled++
	}
}

func (p *progress) report(stop chan struct{}) {
	t := time.NewTicker(p.b.tick)
	defer t.Stop()
	for {
		select {
		case <-stop:
			return
		case <-t.C:
			p.mu.Lock()
			now := p.b.now()
			msg := fmt.Sprintf("[%d/%d] %s: %s", p.n, p.steps, p.name, roundDuration(now.Sub(p.stepStart)))
			if p.total > 0 {
				msg += fmt.Sprintf(", %d of at most %d packages compiled (cached ones are not counted)", p.compiled, p.total)
			}
			if p.downloads > 0 {
				msg += fmt.Sprintf(", %d module%s downloaded", p.downloads, map[bool]string{true: "s"}[p.downloads != 1])
			}
			msg += fmt.Sprintf(" (%s elapsed in all)", roundDuration(now.Sub(p.start)))
			p.mu.Unlock()
			p.b.logf("%s", msg)
		}
	}
}

// done stops the running step's reports.
func (p *progress) done() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.stop != nil {
		close(p.stop)
		p.stop = nil
	}
}

func roundDuration(d time.Duration) time.Duration {
	if d < 10*time.Second {
		return d.Round(100 * time.Millisecond)
	}
	return d.Round(time.Second)
}

// tailLines is how much of a failed go command's output an error repeats.
const tailLines = 30

// goRunner runs the go command in the environment every build step uses:
// outside any workspace (GOWORK=off), updating the scratch go.mod as needed
// (GOFLAGS=-mod=mod, replacing the user's GOFLAGS), static binaries
// (CGO_ENABLED=0) for the platform the cache folder names.
func goRunner(goCmd, goos, goarch string) runFunc {
	return func(ctx context.Context, dir string, stderrLine func(string), args ...string) ([]byte, error) {
		cmd := exec.CommandContext(ctx, goCmd, args...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(),
			"GOWORK=off", "GOFLAGS=-mod=mod", "GO111MODULE=on", "CGO_ENABLED=0",
			"GOOS="+goos, "GOARCH="+goarch)
		cmd.Cancel = func() error { return cmd.Process.Signal(os.Interrupt) }
		cmd.WaitDelay = 10 * time.Second
		var stdout bytes.Buffer
		cmd.Stdout = &stdout
		pr, pw := io.Pipe()
		cmd.Stderr = pw
		var tail []string
		scanned := make(chan struct{})
		go func() {
			defer close(scanned)
			sc := bufio.NewScanner(pr)
			sc.Buffer(make([]byte, 64*1024), 1024*1024)
			for sc.Scan() {
				s := sc.Text()
				if stderrLine != nil {
					stderrLine(s)
				}
				tail = append(tail, s)
				if len(tail) > tailLines {
					tail = tail[len(tail)-tailLines:]
				}
			}
			_, _ = io.Copy(io.Discard, pr)
		}()
		err := cmd.Run()
		_ = pw.Close()
		<-scanned
		if err != nil {
			name := "go " + strings.Join(args, " ")
			if len(name) > 100 { // go build's -ldflags
				name = "go " + args[0] + " ... " + args[len(args)-1]
			}
			if ctx.Err() != nil {
				return nil, fmt.Errorf("%s: interrupted (%w)", name, ctx.Err())
			}
			var exitErr *exec.ExitError
			if errors.As(err, &exitErr) && len(tail) > 0 {
				return nil, fmt.Errorf("%s: %w; the go command's last output:\n%s", name, err, strings.Join(tail, "\n"))
			}
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		return stdout.Bytes(), nil
	}
}
