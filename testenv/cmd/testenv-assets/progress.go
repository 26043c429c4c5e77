package main

import (
	"fmt"
	"strings"
	"sync"
	"time"
)

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

// addSteps counts n steps more than planned (a build done again).
func (p *progress) addSteps(n int) {
	p.mu.Lock()
	p.steps += n
	p.mu.Unlock()
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
