package explore

import (
	"fmt"
	"io"
	"strings"
	"sync"
	"time"
)

// Progress. A search of minutes would otherwise say nothing until Run
// returns: every Options.ProgressEvery (default 5 s) it writes one line
// to Options.Progress (default os.Stderr) with what it searches (the
// deepening level and its bounds, the fault phase, a seeded random
// search), the schedules run and their rate, those pruned, the
// violations met so far and the time left of the Budget; when Run ends,
// one summary line. Options.Quiet turns both off.
//
//	explore: level 1 (Depth 5, Versions 5, StaleReads 8): 1234 schedules, 9.8/s, 211 pruned, 0 violations, 7m32s left
//	explore: done in 10m0s: 6512 schedules, 10.9/s, 1040 pruned, 1 violation (observedGeneration), at Depth 24, ...

// defaultProgressEvery is Options.ProgressEvery's default: well within
// the 10 s a reader waits before thinking the search hangs.
const defaultProgressEvery = 5 * time.Second

// progress counts what a search did, across its levels, its fault phase
// and its workers (the workers call ran concurrently).
type progress struct {
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
	stop                         chan struct{}
	done                         sync.WaitGroup
}

// newProgress is the progress of a search with o (its defaults set), or
// nil when o.Quiet; it writes nothing until started.
func newProgress(o Options, tick <-chan time.Time) *progress {
	if o.Quiet {
		return nil
	}
	p := &progress{w: o.Progress, every: o.ProgressEvery, tick: tick, now: time.Now}
	if o.Schedules > 0 {
		p.of = o.Schedules
		if n := o.Shard.Count; n > 1 {
			p.of = (o.Schedules - o.Shard.Index + n - 1) / n
		}
	}
	return p
}

// startLines starts the periodic lines; budget is the whole search's.
func (p *progress) startLines(budget time.Duration) {
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

// setPhase names what the search runs from now on.
func (p *progress) setPhase(phase string) {
	if p == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.phase = phase
}

// ran counts one schedule run: pruned, or broke an invariant.
func (p *progress) ran(pruned, broke bool) {
	if p == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.schedules++
	if pruned {
		p.pruned++
	}
	if broke {
		p.violating++
	}
}

// counts are the counts so far, as a line says them.
func (p *progress) counts(elapsed time.Duration) string {
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
func (p *progress) line() {
	p.mu.Lock()
	now := p.now()
	var b strings.Builder
	fmt.Fprintf(&b, "explore: %s: %s, %s", p.phase, p.counts(now.Sub(p.start)), plural(p.violating, "violation"))
	if p.of == 0 {
		fmt.Fprintf(&b, ", %s left", max(p.deadline.Sub(now), 0).Round(time.Second))
	}
	b.WriteString("\n")
	p.mu.Unlock()
	_, _ = io.WriteString(p.w, b.String())
}

// finish stops the lines and writes the summary of res (nil: the search
// failed before it ran) and err.
func (p *progress) finish(res *Result, err error) {
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
	if res != nil { // the Result's counts: a parallel search's speculation aside
		p.schedules, p.pruned = res.Schedules, res.Pruned
	}
	var b strings.Builder
	fmt.Fprintf(&b, "explore: done in %s: %s", elapsed.Round(time.Millisecond), p.counts(elapsed))
	if res != nil && (err == nil || res.Violation != nil) {
		if res.Violation != nil {
			vs := res.Violations
			if len(vs) == 0 { // a replay's: its Violation alone
				vs = []*Violation{res.Violation}
			}
			names := []string{}
			for _, v := range vs {
				names = append(names, v.Invariant)
			}
			fmt.Fprintf(&b, ", %s (%s)", plural(len(vs), "violation"), strings.Join(names, ", "))
		} else {
			b.WriteString(", no violation")
		}
		fmt.Fprintf(&b, ", at %s", res.Bounds)
		if res.Exhausted {
			b.WriteString(", exhausted")
		}
	}
	if err != nil {
		fmt.Fprintf(&b, ", error: %v", err)
	}
	b.WriteString("\n")
	_, _ = io.WriteString(p.w, b.String())
}

func plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return fmt.Sprintf("%d %ss", n, what)
}

// phaseOf names the search ex runs, for the progress lines.
func (ex *explorer) phaseOf() string {
	b := ex.bounds()
	switch {
	case b.Faults:
		return fmt.Sprintf("fault phase (Depth %d, Versions %d, StaleReads %d, Crashes 1, LeaderChange)", b.Depth, b.Versions, b.StaleReads)
	case ex.o.Replay != "":
		return "replay"
	case ex.o.Seed != 0:
		return fmt.Sprintf("random schedules of Seed %d (Depth %d, Versions %d, StaleReads %d)", ex.o.Seed, b.Depth, b.Versions, b.StaleReads)
	}
	if b.Fixed {
		return fmt.Sprintf("fixed bounds (Depth %d, Versions %d, StaleReads %d)", b.Depth, b.Versions, b.StaleReads)
	}
	return fmt.Sprintf("level %d (Depth %d, Versions %d, StaleReads %d)", b.Level, b.Depth, b.Versions, b.StaleReads)
}
