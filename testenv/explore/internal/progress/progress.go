package progress

import (
	"fmt"
	"io"
	"strings"
	"sync"
	"time"
)

// Lines counts what a search did, across its levels, its fault phase
// and its workers (the workers call Ran concurrently), and writes the
// lines. A nil *Lines writes nothing.
type Lines struct {
	w     io.Writer
	every time.Duration
	// tick, if set (tests), replaces the ticker of every.
	tick <-chan time.Time
	now  func() time.Time

	mu                           sync.Mutex
	start, deadline              time.Time
	of                           int // Options.Schedules (this shard's share), or 0
	phase                        string
	schedules, pruned, violating int
	// defects are the distinct violations met so far, by the key the
	// report keeps them by (Ran).
	defects map[string]bool
	stop    chan struct{}
	done    sync.WaitGroup
}

// New is the progress of a search that writes to w every every (tick,
// if set (tests), replaces the ticker) and runs of schedules in all (0:
// a Budget); it writes nothing until started.
func New(w io.Writer, every time.Duration, tick <-chan time.Time, of int) *Lines {
	return &Lines{w: w, every: every, tick: tick, now: time.Now, of: of}
}

// Start starts the periodic lines; budget is the whole search's.
func (p *Lines) Start(budget time.Duration) {
	if p == nil {
		return
	}
	p.mu.Lock()
	p.start = p.now()
	p.deadline = p.start.Add(budget)
	p.stop = make(chan struct{})
	stop := p.stop
	p.mu.Unlock()
	p.done.Add(1)
	go func() {
		defer p.done.Done()
		tick := p.tick
		if tick == nil {
			t := time.NewTicker(p.every)
			defer t.Stop()
			tick = t.C
		}
		for {
			select {
			case <-stop:
				return
			case <-tick:
				p.line()
			}
		}
	}()
}

// SetPhase names what the search runs from now on.
func (p *Lines) SetPhase(phase string) {
	if p == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.phase = phase
}

// Ran counts one schedule run: pruned, or, if defect is not "", broke
// an invariant; defect is the violation as the report keeps it, so that
// schedules that break one defect count as one violation (issue 82).
func (p *Lines) Ran(pruned bool, defect string) {
	if p == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.schedules++
	if pruned {
		p.pruned++
	}
	if defect != "" {
		p.violating++
		if p.defects == nil {
			p.defects = map[string]bool{}
		}
		p.defects[defect] = true
	}
}

// counts are the counts so far, as a line says them; a replay's, its
// runs of the one schedule it replays.
func (p *Lines) counts(elapsed time.Duration) string {
	if p.phase == replayPhase {
		return "1 schedule replayed, " + plural(p.schedules, "run")
	}
	rate := 0.0
	if s := elapsed.Seconds(); s > 0 {
		rate = float64(p.schedules) / s
	}
	n := fmt.Sprintf("%d schedules", p.schedules)
	if p.of > 0 {
		n = fmt.Sprintf("%d of %d schedules", p.schedules, p.of)
	}
	return fmt.Sprintf("%s, %.1f/s, %d pruned", n, rate, p.pruned)
}

// line writes one progress line.
func (p *Lines) line() {
	p.mu.Lock()
	now := p.now()
	var b strings.Builder
	fmt.Fprintf(&b, "explore: %s: %s, %s", p.phase, p.counts(now.Sub(p.start)), plural(len(p.defects), "violation"))
	if p.violating > 0 {
		fmt.Fprintf(&b, " (found by %s)", plural(p.violating, "schedule"))
	}
	if p.of == 0 {
		fmt.Fprintf(&b, ", %s left", max(p.deadline.Sub(now), 0).Round(time.Second))
	}
	b.WriteString("\n")
	p.mu.Unlock()
	_, _ = io.WriteString(p.w, b.String())
}

// Finish stops the lines and writes the summary line: counts, if not
// nil, are the search's own (a parallel search's speculation aside), and
// tail ends the line (", 1 violation (converges), at Depth 3, ...").
func (p *Lines) Finish(counts *Counts, tail string) {
	if p == nil {
		return
	}
	p.mu.Lock()
	stop := p.stop
	p.stop = nil
	p.mu.Unlock()
	if stop != nil {
		close(stop)
		p.done.Wait()
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	elapsed := p.now().Sub(p.start)
	if counts != nil {
		p.schedules, p.pruned = counts.Schedules, counts.Pruned
	}
	line := fmt.Sprintf("explore: done in %s: %s%s\n", elapsed.Round(time.Millisecond), p.counts(elapsed), tail)
	_, _ = io.WriteString(p.w, line)
}

// Counts are a search's counts of schedules, as its result gives them.
type Counts struct{ Schedules, Pruned int }

func plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return fmt.Sprintf("%d %ss", n, what)
}
