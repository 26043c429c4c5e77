package main

import (
	"context"
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

	"github.com/statuspatch/statuspatch/hack/internal/gocmd"
	"github.com/statuspatch/statuspatch/hack/internal/releaseproxy"
)

// The versions the concurrent runs release, in scratch clones only.
const (
	dryVersion   = "v0.98.0"
	applyVersion = "v0.97.0"
)

// A job is one of the runs started at once: its output goes to log.
type job struct {
	name, what string
	run        func(ctx context.Context, log io.Writer) error
}

// A result is how a job ended.
type result struct {
	name string
	took time.Duration
	err  error
	log  string
}

// runJobs starts every job at once, each writing its own log, and waits
// for them all; the results are in the jobs' order.
func runJobs(ctx context.Context, jobs []job, out io.Writer) []result {
	results := make([]result, len(jobs))
	var wg sync.WaitGroup
	for i, j := range jobs {
		fmt.Fprintf(out, "started %s: %s\n", j.name, j.what)
		wg.Add(1)
		go func() {
			defer wg.Done()
			var log strings.Builder
			w := &syncWriter{w: &log}
			start := time.Now()
			err := j.run(ctx, w)
			results[i] = result{name: j.name, took: time.Since(start), err: err, log: w.String()}
		}()
	}
	wg.Wait()
	return results
}

// syncWriter is a log several writers (a command's output and error) share.
type syncWriter struct {
	mu sync.Mutex
	w  *strings.Builder
}

func (s *syncWriter) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.w.Write(p)
}

func (s *syncWriter) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.w.String()
}

// report prints each result (a failed one with its log, indented) and the
// number of waits for the release cache's lock the logs name; the error
// names the jobs that failed.
func report(results []result, out io.Writer) error {
	var failed []string
	waits := 0
	for _, r := range results {
		secs := int(r.took.Round(time.Second) / time.Second)
		if r.err == nil {
			fmt.Fprintf(out, "ok: %s passed (%ds)\n", r.name, secs)
		} else {
			fmt.Fprintf(out, "FAIL: %s (%ds): %v; its log:\n", r.name, secs, r.err)
			for _, line := range strings.Split(strings.TrimRight(r.log, "\n"), "\n") {
				fmt.Fprintf(out, "    %s\n", line)
			}
			failed = append(failed, r.name)
		}
		waits += strings.Count(r.log, "waiting for another run")
	}
	fmt.Fprintf(out, "waits for the release cache's lock: %d\n", waits)
	if len(failed) > 0 {
		sort.Strings(failed)
		return fmt.Errorf("failed: %s", strings.Join(failed, " "))
	}
	return nil
}

// installMode reads RELEASE_CONCURRENCY_INSTALL: full (the default) or
// quick.
func installMode(v string) (string, error) {
	switch v {
	case "", "full":
		return "full", nil
	case "quick":
		return "quick", nil
	}
	return "", fmt.Errorf("RELEASE_CONCURRENCY_INSTALL is %s; want full or quick", v)
}

// script is a job that runs a script, its output the log.
func script(name string, argv ...string) job {
	return scriptEnv(name, nil, argv...)
}

// scriptEnv is script with env added to the environment.
func scriptEnv(name string, env []string, argv ...string) job {
	return job{name: name, what: strings.Join(append(append([]string(nil), env...), argv...), " "), run: func(ctx context.Context, log io.Writer) error {
		cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
		cmd.Stdout, cmd.Stderr = log, log
		if env != nil {
			cmd.Env = append(os.Environ(), env...)
		}
		if err := cmd.Run(); err != nil {
			return fmt.Errorf("%s: %w", argv[0], err)
		}
		return nil
	}}
}

// quickInstall is a short consumer of the release cache: under its lock,
// the proxy of root at version, then in a new module go get the runtime
// and patchertest, list their imports, go install statuspatch-gen and run
// it; the rebuilt copies dropped at the end, still under the lock.
func quickInstall(root, version, work string) job {
	return job{name: "install-quick", what: "go get, go list, go install from the proxy of " + root + " at " + version, run: func(ctx context.Context, log io.Writer) (err error) {
		dir, err := releaseproxy.CacheDir(os.Getenv)
		if err != nil {
			return err
		}
		lock, err := releaseproxy.LockDir(dir, func() { fmt.Fprintln(log, releaseproxy.Waiting(dir)) })
		if err != nil {
			return err
		}
		caller := gocmd.Runner{Root: root, Stdout: log, Stderr: log}
		var served releaseproxy.Caches // the proxy's copies, dropped at the end
		defer func() {
			err = errors.Join(err, releaseproxy.Drop(served), lock.Unlock())
		}()
		env, served, err := releaseproxy.Proxy{Repo: root, Version: version, Work: work, Listing: log}.Use(caller)
		if err != nil {
			return err
		}
		consumer := filepath.Join(work, "consumer")
		if err := os.MkdirAll(consumer, 0o755); err != nil {
			return err
		}
		p := releaseproxy.Module
		g := gocmd.Runner{Root: consumer, Env: append(releaseproxy.Environ(env), "GOBIN="+filepath.Join(consumer, "bin")), Stdout: log, Stderr: log}
		for _, c := range []gocmd.Cmd{
			{Dir: ".", Verb: []string{"mod", "init", "example.com/consumer"}},
			{Dir: ".", Verb: []string{"get", p + "/patcher@" + version, p + "/patchertest@" + version}},
			{Dir: ".", Verb: []string{"list", "-deps", p + "/patcher", p + "/patchertest"}},
			{Dir: ".", Verb: []string{"install", p + "/cmd/statuspatch-gen@" + version}},
		} {
			if c.Verb[0] == "list" {
				_, err = g.Output(c)
			} else {
				err = g.Run(c)
			}
			if err != nil {
				return err
			}
		}
		bin := filepath.Join(consumer, "bin", "statuspatch-gen")
		_ = exec.CommandContext(ctx, bin, "-h").Run() // it ran; -h's status is its own
		info, err := os.Stat(bin)
		if err != nil {
			return fmt.Errorf("go install left no statuspatch-gen: %w", err)
		}
		if info.Mode()&0o111 == 0 {
			return fmt.Errorf("go install left %s, not executable", bin)
		}
		return nil
	}}
}

// testConcurrent is release-concurrency-test: a dry run with --keep into a
// scratch folder, an --apply in a scratch clone of root (it fast-forwards
// the clone, never root), and an install (hack/install-test.sh, or in
// quick mode quickInstall), started at once, all pass; then the apply moved
// its clone only and the dry run kept its clone.
func testConcurrent(ctx context.Context, root, mode string, out io.Writer) error {
	data, err := os.ReadFile(filepath.Join(root, "testenv", "go.mod"))
	if err != nil {
		return err
	}
	version, err := lastRelease("testenv/go.mod", data)
	if err != nil {
		return err
	}
	for _, v := range []string{applyVersion, dryVersion} {
		if hasTag(ctx, root, v) {
			return fmt.Errorf("tag %s exists here; the test releases it in scratch clones", v)
		}
	}
	work, err := os.MkdirTemp("", "release-concurrency-")
	if err != nil {
		return err
	}
	defer removeAll(work)
	r := &release{errw: out}
	applyRepo := filepath.Join(work, "apply-repo")
	head, err := r.git(ctx, root, "rev-parse", "HEAD")
	if err != nil {
		return err
	}
	if _, err := r.git(ctx, root, "clone", "-q", "--no-local", root, applyRepo); err != nil {
		return err
	}
	if _, err := r.git(ctx, applyRepo, "checkout", "-q", "-B", "release-test", strings.TrimSpace(head)); err != nil {
		return err
	}
	// A real release needs its CHANGELOG.md section and passes make
	// test-compat-all first (gate.go); the scratch release adds the one
	// and replaces the other, whose lines this test is not about.
	if err := addChangelogSection(ctx, r, applyRepo, applyVersion); err != nil {
		return err
	}
	dryClone := filepath.Join(work, "dry-clone")
	jobs := []job{
		script("release-dry", filepath.Join(root, "hack", "release.sh"), dryVersion, "--keep", dryClone),
		scriptEnv("release-apply", []string{compatCmdEnv + "=true"}, filepath.Join(applyRepo, "hack", "release.sh"), applyVersion, "--apply"),
	}
	if mode == "full" {
		jobs = append(jobs, script("install-test", filepath.Join(root, "hack", "install-test.sh")))
	} else {
		jobs = append(jobs, quickInstall(root, version, filepath.Join(work, "quick")))
	}
	start := time.Now()
	if err := report(runJobs(ctx, jobs, out), out); err != nil {
		return err
	}
	subject, err := r.git(ctx, applyRepo, "log", "-1", "--format=%s")
	if err != nil {
		return err
	}
	switch {
	case !hasTag(ctx, applyRepo, applyVersion):
		return fmt.Errorf("release --apply did not tag %s in its clone", applyVersion)
	case strings.TrimSpace(subject) != "release: "+applyVersion:
		return fmt.Errorf("release --apply did not fast-forward its clone %s (HEAD: %q)", applyRepo, strings.TrimSpace(subject))
	case !hasTag(ctx, dryClone, dryVersion):
		return fmt.Errorf("the dry run's kept clone has no tag %s", dryVersion)
	case hasTag(ctx, root, applyVersion):
		return fmt.Errorf("a run tagged this repository (%s)", applyVersion)
	}
	fmt.Fprintf(out, "ok: two releases and the install test (%s), started at once, all passed in %ds\n", mode, int(time.Since(start).Round(time.Second)/time.Second))
	return nil
}

// addChangelogSection commits a CHANGELOG.md section for version in repo.
func addChangelogSection(ctx context.Context, r *release, repo, version string) error {
	name := filepath.Join(repo, "CHANGELOG.md")
	text, err := os.ReadFile(name)
	if err != nil {
		return fmt.Errorf("the scratch clone's CHANGELOG.md: %w", err)
	}
	text = append(text, []byte("\n## "+version+" - scratch\n- release-concurrency-test's scratch release.\n")...)
	if err := os.WriteFile(name, text, 0o644); err != nil {
		return err
	}
	_, err = r.git(ctx, repo, append(identity(), "commit", "-q", "-m", "CHANGELOG: "+version, "CHANGELOG.md")...)
	return err
}
