package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"
	"sync"
	"time"
)

// warmListFormat prints each package a test build of the patterns needs
// that go build can compile on its own: not the standard library (the
// toolchain's, and quick), not commands (linking them would be wasted),
// not test variants ("p [p.test]") or test mains, which go build cannot
// name (they are filtered below, by their import paths).
const warmListFormat = `{{if and (not .Standard) (ne .Name "main") (or .GoFiles .CgoFiles)}}{{.ImportPath}}{{end}}`

const warmUsage = `testenv-assets warm compiles, with progress, every package the tests of
PACKAGES (./... if none) need into the Go build cache, so the first go test
of a package importing testenv does not spend minutes compiling the API
server in silence. It runs go list -deps -test and go build in the
current module, in your environment (GOFLAGS, GOWORK, GOCACHE as go test
would see them); pass the flags your go test uses that change what is
compiled (-race, -tags). A warm cache makes it a second's work.

Usage:
  testenv-assets warm [-race] [-tags TAGS] [PACKAGES]

Flags:
`

// warm is the warm command, run in dir ("" for the working directory).
func warm(ctx context.Context, dir string, args []string, stderr io.Writer, runner runFunc, tick time.Duration) int {
	fs := flag.NewFlagSet("testenv-assets warm", flag.ContinueOnError)
	fs.SetOutput(stderr)
	race := fs.Bool("race", false, "compile as go test -race does")
	tags := fs.String("tags", "", "build tags, as go test -tags")
	fs.Usage = func() {
		fmt.Fprint(stderr, warmUsage)
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	patterns := fs.Args()
	if len(patterns) == 0 {
		patterns = []string{"./..."}
	}
	var flags []string
	if *race {
		flags = append(flags, "-race")
	}
	if *tags != "" {
		flags = append(flags, "-tags", *tags)
	}
	logf := func(format string, args ...any) { fmt.Fprintf(stderr, "testenv-assets warm: "+format+"\n", args...) }
	start := time.Now()

	listArgs := append(append([]string{"list", "-deps", "-test"}, flags...), "-f", warmListFormat)
	out, err := runner(ctx, dir, nil, append(listArgs, patterns...)...)
	if err != nil {
		logf("listing the packages the tests of %s need: %v", strings.Join(patterns, " "), err)
		return 1
	}
	pkgs := warmPackages(string(out))
	if len(pkgs) == 0 {
		logf("%s need no packages outside the standard library", strings.Join(patterns, " "))
		return 0
	}
	logf("the tests of %s need %d packages outside the standard library; compiling those not in the build cache "+
		"(minutes on a cold cache when the Kubernetes API server is among them, seconds when warm)",
		strings.Join(patterns, " "), len(pkgs))

	c := &warmCounter{listed: map[string]bool{}, total: len(pkgs), every: max(1, len(pkgs)/20), start: start, logf: logf}
	for _, p := range pkgs {
		c.listed[p] = true
	}
	stop := make(chan struct{})
	var wg sync.WaitGroup
	if tick > 0 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c.reportEvery(tick, stop)
		}()
	}
	buildArgs := append(append([]string{"build", "-v"}, flags...), pkgs...)
	_, err = runner(ctx, dir, c.line, buildArgs...)
	close(stop)
	wg.Wait()
	if err != nil {
		logf("compiling: %v", err)
		return 1
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	logf("done in %s: compiled %d/%d packages, the other %d were in the build cache; %d standard-library packages compiled too",
		roundDuration(time.Since(start)), c.compiled, c.total, c.total-c.compiled, c.std)
	return 0
}

// warmPackages keeps the import paths go build can take: one a line,
// without test variants and test mains.
func warmPackages(list string) []string {
	seen := map[string]bool{}
	var pkgs []string
	for _, p := range strings.Split(list, "\n") {
		p = strings.TrimSpace(p)
		if p == "" || strings.Contains(p, " ") || strings.HasSuffix(p, ".test") || seen[p] {
			continue
		}
		seen[p] = true
		pkgs = append(pkgs, p)
	}
	return pkgs
}

// warmCounter counts go build -v's lines (the packages it compiles; cached
// ones print nothing) and says how far it got every 5% and, in long
// silences, every tick. Standard-library packages, which go build -v
// names too on a cold cache, are counted apart: they are not in total.
type warmCounter struct {
	mu       sync.Mutex
	listed   map[string]bool
	std      int
	total    int
	every    int
	compiled int
	latest   string
	reported int
	start    time.Time
	logf     func(string, ...any)
}

func (c *warmCounter) line(s string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if s == "" || strings.ContainsAny(s, " \t:#") { // compiler output, "go: downloading"
		c.logf("%s", s)
		return
	}
	c.latest = s
	if !c.listed[s] {
		c.std++
		return
	}
	c.compiled++
	if c.compiled%c.every == 0 {
		c.report()
	}
}

func (c *warmCounter) report() {
	c.reported = c.compiled
	c.logf("compiled %d/%d packages (%s), latest %s", c.compiled, c.total, roundDuration(time.Since(c.start)), c.latest)
}

func (c *warmCounter) reportEvery(tick time.Duration, stop <-chan struct{}) {
	t := time.NewTicker(tick)
	defer t.Stop()
	for {
		select {
		case <-stop:
			return
		case <-t.C:
			c.mu.Lock()
			if c.compiled != c.reported {
				c.report()
			} else {
				c.logf("still compiling after %s: %d/%d packages, latest %s", roundDuration(time.Since(c.start)), c.compiled, c.total, c.latest)
			}
			c.mu.Unlock()
		}
	}
}
