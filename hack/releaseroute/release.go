package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/statuspatch/statuspatch/hack/internal/gocmd"
	"github.com/statuspatch/statuspatch/hack/internal/releaseproxy"
)

// A release is one run of `releaseroute release`.
type release struct {
	root    string // the repository released from (its HEAD)
	version string
	apply   bool
	keep    string // the prepared clone's folder, kept; "" for a temporary one
	out     io.Writer
	errw    io.Writer
	// gate, when set, stands in for make test-compat-all (gate.go), in
	// tests.
	gate func(context.Context) error
}

// git runs git in dir; its standard output is returned, its standard error
// is the route's.
func (r *release) git(ctx context.Context, dir string, args ...string) (string, error) {
	cmd := exec.CommandContext(ctx, "git", append([]string{"-C", dir}, args...)...)
	cmd.Stderr = r.errw
	out, err := cmd.Output()
	if err != nil {
		return "", fmt.Errorf("git -C %s %s: %w", dir, strings.Join(args, " "), err)
	}
	return string(out), nil
}

// hasTag reports whether the repository in dir has tag t.
func hasTag(ctx context.Context, dir, t string) bool {
	return exec.CommandContext(ctx, "git", "-C", dir, "rev-parse", "-q", "--verify", "refs/tags/"+t).Run() == nil
}

// removeAll removes dir, making its folders writable first (chmod -R
// u+w; rm -rf): a failure leaves it behind, unsaid, as the scripts did.
func removeAll(dir string) {
	_ = filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err == nil && d.IsDir() {
			_ = os.Chmod(p, 0o755)
		}
		return nil
	})
	_ = os.RemoveAll(dir)
}

// identity is the committer of the release commit and tags.
func identity() []string {
	name, email := os.Getenv("GIT_AUTHOR_NAME"), os.Getenv("GIT_AUTHOR_EMAIL")
	if name == "" {
		name = "statuspatch release"
	}
	if email == "" {
		email = "release@statuspatch.invalid"
	}
	return []string{"-c", "user.name=" + name, "-c", "user.email=" + email}
}

// precheck refuses, before any work, a tag that exists, and --apply on a
// working tree with changes.
func (r *release) precheck(ctx context.Context) error {
	for _, t := range tags(r.version) {
		if hasTag(ctx, r.root, t) {
			return fmt.Errorf("tag %s exists already", t)
		}
	}
	status, err := r.git(ctx, r.root, "status", "--porcelain")
	if err != nil {
		return err
	}
	if status != "" {
		if r.apply {
			return errors.New("the working tree has uncommitted changes; commit them first")
		}
		fmt.Fprintln(r.out, "release: note: uncommitted changes are not part of the release (it is made from HEAD)")
	}
	if r.keep != "" {
		if _, err := os.Lstat(r.keep); err == nil {
			return fmt.Errorf("--keep %s exists already", r.keep)
		}
	}
	return nil
}

// run makes the release: precheck, with --apply the gate (CHANGELOG.md's
// section and make test-compat-all, gate.go), a clone of HEAD, the edits, each
// module tidied and resolved from a proxy of the clone, the commit and
// tags; with apply, the commit and tags fetched into the repository.
func (r *release) run(ctx context.Context) (err error) {
	if err := checkVersion(r.version); err != nil {
		return err
	}
	if err := r.precheck(ctx); err != nil {
		return err
	}
	if err := r.gateApply(ctx); err != nil {
		return err
	}
	work, err := os.MkdirTemp("", "release-")
	if err != nil {
		return err
	}
	defer removeAll(work)
	clone := r.keep
	if clone == "" {
		clone = filepath.Join(work, "repo")
	}
	head, err := r.git(ctx, r.root, "rev-parse", "HEAD")
	if err != nil {
		return err
	}
	if _, err := r.git(ctx, r.root, "clone", "-q", "--no-local", r.root, clone); err != nil {
		return err
	}
	if _, err := r.git(ctx, clone, "checkout", "-q", "--detach", strings.TrimSpace(head)); err != nil {
		return err
	}
	g := gocmd.Runner{Root: clone, Stdout: r.out, Stderr: r.errw}
	if err := r.edit(ctx, clone, g); err != nil {
		return err
	}
	if err := r.resolve(ctx, clone, work); err != nil {
		return err
	}
	return r.commit(ctx, clone)
}

// edit moves the requirements, go.work's replace lines and the install
// docs from the last release to the version (step 1).
func (r *release) edit(ctx context.Context, clone string, g gocmd.Go) error {
	name := filepath.Join(clone, "testenv", "go.mod")
	data, err := os.ReadFile(name)
	if err != nil {
		return err
	}
	old, err := lastRelease("testenv/go.mod", data)
	if err != nil {
		return err
	}
	short, err := r.git(ctx, clone, "rev-parse", "--short", "HEAD")
	if err != nil {
		return err
	}
	fmt.Fprintf(r.out, "release: %s -> %s, from %s\n", old, r.version, strings.TrimSpace(short))
	for _, m := range modules {
		if len(m.needs) > 0 {
			continue
		}
		gomod := filepath.Join(m.dir, "go.mod")
		data, err := os.ReadFile(filepath.Join(clone, gomod))
		if err != nil {
			return err
		}
		if err := namesNoSibling(filepath.ToSlash(gomod), data); err != nil {
			return err
		}
	}
	for _, c := range requireEdits(r.version) {
		if err := g.Run(c); err != nil {
			return err
		}
	}
	for _, f := range workFiles {
		if err := rewriteFile(filepath.Join(clone, f), workRewrites(old, r.version), false); err != nil {
			return err
		}
	}
	for _, f := range docFiles {
		if err := rewriteFile(filepath.Join(clone, f), docRewrites(old, r.version), true); err != nil {
			return err
		}
	}
	return nil
}

// rewriteFile applies rs to the file at name, line by line; a missing file
// is an error unless optional.
func rewriteFile(name string, rs []rewrite, optional bool) error {
	data, err := os.ReadFile(name)
	if optional && errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	info, err := os.Stat(name)
	if err != nil {
		return err
	}
	if err := os.WriteFile(name, []byte(apply(string(data), rs)), info.Mode().Perm()); err != nil {
		return fmt.Errorf("rewriting %s: %w", name, err)
	}
	return nil
}

// resolve is step 2: under the release cache's lock, module by module in
// dependency order, a proxy of the clone rebuilt (a module's zip holds its
// go.sum, and a requiring module's go.sum holds the hash of that zip), go
// mod tidy in a module that requires a sibling, then go list -deps -test
// ./... with -mod=readonly in every module: every import resolves from the
// proxy with a complete go.sum; and no go.mod replaces anything. The
// rebuilt copies are dropped from the module cache at the end, still under
// the lock.
func (r *release) resolve(ctx context.Context, clone, work string) (err error) {
	dir, err := releaseproxy.CacheDir(os.Getenv)
	if err != nil {
		return err
	}
	lock, err := releaseproxy.LockDir(dir, func() { fmt.Fprintln(r.errw, releaseproxy.Waiting(dir)) })
	if err != nil {
		return err
	}
	callerGo := gocmd.Runner{Root: clone, Stdout: r.out, Stderr: r.errw}
	// served is the last proxy's copies in the caller's caches (each proxy
	// serves every published module at r.version): Drop's, at the end.
	var served releaseproxy.Caches
	defer func() {
		if derr := releaseproxy.Drop(served); derr != nil {
			fmt.Fprintf(r.errw, "release: %v\n", derr)
		}
		if uerr := lock.Unlock(); uerr != nil && err == nil {
			err = uerr
		}
	}()
	for _, m := range modules {
		if err := ctx.Err(); err != nil {
			return err
		}
		env, caches, err := releaseproxy.Proxy{Repo: clone, Version: r.version, Work: work}.Use(callerGo)
		if err != nil {
			return err
		}
		served = caches
		g := gocmd.Runner{Root: clone, Env: releaseproxy.Environ(env), Stdout: r.out, Stderr: r.errw}
		if len(m.needs) > 0 {
			fmt.Fprintf(r.out, "release: %s: go mod tidy, go list -deps -test ./... (GOWORK=off, from the proxy)\n", m.dir)
			if err := g.Run(gocmd.Cmd{Dir: m.dir, Verb: []string{"mod", "tidy"}}); err != nil {
				return err
			}
		} else {
			fmt.Fprintf(r.out, "release: %s: go list -deps -test ./... (GOWORK=off, from the proxy; needs no sibling, released as it is)\n", m.dir)
		}
		goflags := ""
		for _, s := range env {
			if s.Key == "GOFLAGS" {
				goflags = s.Value
			}
		}
		g.Env = append(g.Env, "GOFLAGS="+goflags+" -mod=readonly")
		g.Stdout = io.Discard
		if err := g.Run(gocmd.Cmd{Dir: m.dir, Verb: []string{"list", "-deps", "-test", "./..."}}); err != nil {
			return err
		}
		gomod := filepath.Join(m.dir, "go.mod")
		data, err := os.ReadFile(filepath.Join(clone, gomod))
		if err != nil {
			return err
		}
		if err := noReplace(filepath.ToSlash(gomod), data); err != nil {
			return err
		}
	}
	return nil
}

// commit is step 3: the release commit and its tags, then, with apply,
// both fetched into the repository and its branch fast-forwarded.
func (r *release) commit(ctx context.Context, clone string) error {
	if _, err := r.git(ctx, clone, "add", "-A"); err != nil {
		return err
	}
	if _, err := r.git(ctx, clone, append(identity(), "commit", "-q", "-m", "release: "+r.version)...); err != nil {
		return err
	}
	ts := tags(r.version)
	for _, t := range ts {
		if _, err := r.git(ctx, clone, append(identity(), "tag", "-a", t, "-m", "statuspatch "+r.version)...); err != nil {
			return err
		}
	}
	show, err := r.git(ctx, clone, "--no-pager", "show", "--stat", "--format=release commit %h: %s", "HEAD")
	if err != nil {
		return err
	}
	fmt.Fprint(r.out, show)
	fmt.Fprintf(r.out, "release: tags: %s\n", strings.Join(ts, " "))
	if !r.apply {
		fmt.Fprintf(r.out, "release: dry run; nothing changed in %s (--apply to fetch the commit and tags)\n", r.root)
		return nil
	}
	steps := [][]string{{"fetch", "-q", clone, "HEAD"}, {"merge", "-q", "--ff-only", "FETCH_HEAD"}}
	for _, t := range ts {
		steps = append(steps, []string{"fetch", "-q", clone, "refs/tags/" + t + ":refs/tags/" + t})
	}
	for _, s := range steps {
		if _, err := r.git(ctx, r.root, s...); err != nil {
			return err
		}
	}
	fmt.Fprintf(r.out, "release: %s is at the release commit; push with: git push origin HEAD %s\n", r.root, strings.Join(ts, " "))
	return nil
}
