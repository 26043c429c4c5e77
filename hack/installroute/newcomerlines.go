package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/statuspatch/statuspatch/hack/internal/lines"
	"github.com/statuspatch/statuspatch/hack/internal/releaseproxy"
)

// Several lines: one run of this program per line, up to NEWCOMER_JOBS at
// once (default 2: the 2 cores CI has). The lines share one release proxy,
// built once by the run of all of them under the release cache's lock, the
// whole time: with a proxy each, they would take turns on the lock and run
// one at a time. Each line's output is its own lines, prefixed with its
// name and "| " when more than one runs at once.

// heldProxyVar carries the proxy of the run of all lines to each line's
// run: its version and the go command's settings for it (JSON). A line's
// run with it takes no lock, builds no proxy and drops nothing: the run
// that holds the lock does.
const heldProxyVar = "STATUSPATCH_NEWCOMER_PROXY"

type heldProxy struct {
	Version  string
	Settings []releaseproxy.Setting
}

// heldProxyEnv is heldProxyVar's KEY=VALUE for version and settings.
func heldProxyEnv(version string, settings []releaseproxy.Setting) (string, error) {
	b, err := json.Marshal(heldProxy{Version: version, Settings: settings})
	if err != nil {
		return "", err
	}
	return heldProxyVar + "=" + string(b), nil
}

// parseHeldProxy reads heldProxyVar's value.
func parseHeldProxy(v string) (heldProxy, error) {
	var h heldProxy
	if err := json.Unmarshal([]byte(v), &h); err != nil {
		return h, fmt.Errorf("%s: %w", heldProxyVar, err)
	}
	if h.Version == "" || len(h.Settings) == 0 {
		return h, fmt.Errorf("%s: no version or no settings in %q", heldProxyVar, v)
	}
	return h, nil
}

// lineProxy is the proxy a line's run uses: the run of all lines' (held,
// from heldProxyVar), or its own (useProxy: the lock, the proxy, dropped
// at the end).
func (rt *route) lineProxy() ([]releaseproxy.Setting, error) {
	v, ok := os.LookupEnv(heldProxyVar)
	if !ok {
		return rt.useProxy("", rt.r.stdout)
	}
	h, err := parseHeldProxy(v)
	if err != nil {
		return nil, err
	}
	rt.version = h.Version
	rt.r.step("module proxy at %s (the one the run of every line built, under the release cache's lock)", rt.version)
	return h.Settings, nil
}

// newcomerJobs is how many lines run at once: NEWCOMER_JOBS, a positive
// number, or 2.
func newcomerJobs(v string) (int, error) {
	if v == "" {
		return 2, nil
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < 1 {
		return 0, failf("NEWCOMER_JOBS=%q: want a positive number of lines at once", v)
	}
	return n, nil
}

// newcomerLines runs each line (runOne: its exit status, its output to
// out), up to jobs at once, each timed, then prints a summary in the
// lines' order; it fails naming the lines that failed.
func (rt *route) newcomerLines(sel []lines.Line, jobs int, runOne func(name string, out io.Writer) int) error {
	var mu sync.Mutex // rt.r.stdout, results
	say := func(format string, args ...any) {
		mu.Lock()
		defer mu.Unlock()
		rt.r.printf(format, args...)
	}
	results := make([]string, len(sel))
	codes := make([]int, len(sel))
	slots := make(chan struct{}, jobs)
	var wg sync.WaitGroup
	for i, l := range sel {
		slots <- struct{}{}
		say("=== newcomer-test: line %s (%d of %d) starts, load %s\n", l.Name, i+1, len(sel), rt.load())
		out := &prefixed{mu: &mu, w: rt.r.stdout}
		if jobs > 1 && len(sel) > 1 {
			out.prefix = l.Name + "| "
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer func() { <-slots }()
			t0 := time.Now()
			code := runOne(l.Name, out)
			out.flush()
			res := lineResult(l.Name, code, time.Since(t0), rt.load())
			mu.Lock()
			results[i], codes[i] = res, code
			mu.Unlock()
			say("=== newcomer-test: %s\n", res)
		}()
	}
	wg.Wait()
	var failed []string
	rt.r.printf("\n=== newcomer-test: %d lines\n", len(sel))
	for i, l := range sel {
		rt.r.printf("  %s\n", results[i])
		if codes[i] != 0 {
			failed = append(failed, l.Name)
		}
	}
	if len(failed) > 0 {
		return failf("failed at line(s) %s (each line's output above; rerun one with hack/newcomer-test.sh LINE or make test-newcomer NEWCOMER_LINE=LINE)", strings.Join(failed, " "))
	}
	return nil
}

// prefixed writes whole lines to w under mu, each after prefix; flush
// writes a last line that has no newline.
type prefixed struct {
	mu     *sync.Mutex
	w      io.Writer
	prefix string
	buf    []byte
}

func (p *prefixed) Write(b []byte) (int, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.buf = append(p.buf, b...)
	for {
		i := bytes.IndexByte(p.buf, '\n')
		if i < 0 {
			return len(b), nil
		}
		if _, err := fmt.Fprintf(p.w, "%s%s", p.prefix, p.buf[:i+1]); err != nil {
			return len(b), err
		}
		p.buf = p.buf[i+1:]
	}
}

func (p *prefixed) flush() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if len(p.buf) > 0 {
		fmt.Fprintf(p.w, "%s%s\n", p.prefix, p.buf)
		p.buf = nil
	}
}
