package explore_test

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"sigs.k8s.io/controller-runtime/pkg/client"

	testv1 "github.com/statuspatch/statuspatch/internal/testapi/v1"
	"github.com/statuspatch/statuspatch/testenv/explore"
)

// lines is a writer that keeps the lines written to it, from any
// goroutine, and closes first at the first one.
type lines struct {
	mu    sync.Mutex
	text  strings.Builder
	first chan struct{}
}

func newLines() *lines { return &lines{first: make(chan struct{})} }

func (l *lines) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.text.Len() == 0 && len(p) > 0 {
		close(l.first)
	}
	return l.text.Write(p)
}

func (l *lines) lines() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return strings.Split(strings.TrimSuffix(l.text.String(), "\n"), "\n")
}

var (
	progressLine = regexp.MustCompile(`^explore: random schedules of Seed 1 \(Depth 4, Versions 4, StaleReads 2\): \d+ schedules, \d+\.\d/s, 0 pruned, 0 violations, \d+s left$`)
	summaryLine  = regexp.MustCompile(`^explore: done in [0-9.]+m?s: \d+ schedules, \d+\.\d/s, 0 pruned, no violation, at Depth 4, Versions 4, StaleReads 2 \(random schedules of Options.Seed, not deepened\)$`)
)

// A search says how it goes: a line every ProgressEvery from its start,
// on a real clock, the first well within 10 s, and a summary line when
// it ends; the default interval is within that bound too.
func TestProgressLinesWithinTenSeconds(t *testing.T) {
	if explore.DefaultProgressEvery > 5*time.Second {
		t.Fatalf("default ProgressEvery %s: want at most 5s, so a line comes within 10s", explore.DefaultProgressEvery)
	}
	out := newLines()
	o := explore.Options{Backend: explore.Fake(widgetScheme(t), &testv1.Widget{}), Seed: 1, Budget: time.Second,
		Progress: out, ProgressEvery: 50 * time.Millisecond}
	start := time.Now()
	done := make(chan error, 1)
	go func() {
		_, err := explore.Run(t.Context(), thriceFooledScenario(), o)
		done <- err
	}()
	select {
	case <-out.first:
		if d := time.Since(start); d > 10*time.Second {
			t.Fatalf("first progress line after %s, want within 10s", d)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("no progress line within 10s of the search's start")
	}
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	got := out.lines()
	if len(got) < 2 || !progressLine.MatchString(got[0]) || !summaryLine.MatchString(got[len(got)-1]) {
		t.Fatalf("want progress lines, then a summary; got:\n%s", strings.Join(got, "\n"))
	}
	t.Logf("%d lines, first and last:\n%s\n%s", len(got), got[0], got[len(got)-1])
}

// With an injected clock the lines say exactly what ran: a tick after the
// first schedule counts it; Quiet writes nothing.
func TestProgressCountsAndQuiet(t *testing.T) {
	fake := explore.Fake(widgetScheme(t), &testv1.Widget{})
	out := newLines()
	tick := make(chan time.Time)
	visits := 0
	_, err := explore.RunTicked(t.Context(), thriceFooledScenario(), explore.Options{Backend: fake, Seed: 1, Schedules: 5, Progress: out}, tick, func() {
		visits++
		if visits == 2 { // the first schedule is counted once it returns
			tick <- time.Now()
			<-out.first // the line is written before the second schedule ends
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	got := out.lines()
	want := regexp.MustCompile(`^explore: random schedules of Seed 1 \(Depth 4, Versions 4, StaleReads 2\): 1 of 5 schedules, \d+\.\d/s, 0 pruned, 0 violations$`)
	if len(got) != 2 || !want.MatchString(got[0]) || !strings.HasPrefix(got[1], "explore: done in ") || !strings.Contains(got[1], ": 5 of 5 schedules, ") {
		t.Fatalf("want one progress line after the first schedule, then the summary; got:\n%s", strings.Join(got, "\n"))
	}

	// A deepening search names its level; the summary, what it found where.
	out, visits = newLines(), 0
	res, err := explore.RunTicked(t.Context(), thriceFooledScenario(), explore.Options{Backend: fake, Budget: searchBound, StopAtFirst: true, Progress: out}, tick, func() {
		if visits++; visits == 1 {
			tick <- time.Now()
			<-out.first
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	got = out.lines()
	if len(got) != 2 || !strings.HasPrefix(got[0], "explore: level 0 (Depth 4, Versions 4, StaleReads 2): 0 schedules, ") ||
		!strings.Contains(got[1], fmt.Sprintf(": %d schedules, ", res.Schedules)) ||
		!strings.HasSuffix(got[1], ", 1 violation (user invariant), at Depth 5, Versions 5, StaleReads 8 (deepening level 1)") {
		t.Fatalf("deepening: want a line of level 0, then the summary of the violation at level 1; got:\n%s", strings.Join(got, "\n"))
	}

	quiet := newLines()
	if _, err := explore.Run(t.Context(), thriceFooledScenario(), explore.Options{Backend: fake, Seed: 1, Schedules: 5, Progress: quiet, ProgressEvery: time.Nanosecond, Quiet: true}); err != nil {
		t.Fatal(err)
	}
	if s := quiet.text.String(); s != "" {
		t.Fatalf("Quiet: want nothing written, got:\n%s", s)
	}
}

// A replay's summary names the invariant its violation broke, as a
// search's does (a replay's Result has its Violation alone, not in
// Violations), and says it was a replay, at which Versions.
func TestProgressReplaySummaryNamesTheInvariant(t *testing.T) {
	fake := explore.Fake(widgetScheme(t), &testv1.Widget{})
	res, err := explore.Run(t.Context(), thriceFooledScenario(), explore.Options{Backend: fake, Budget: searchBound, StopAtFirst: true, Quiet: true})
	if err != nil || res.Violation == nil {
		t.Fatalf("want a violation to replay, got %v, error %v", res.Violation, err)
	}
	out := newLines()
	ro := res.Violation.ReplayOptions()
	ro.Backend, ro.Progress = fake, out
	if _, err := explore.Run(t.Context(), thriceFooledScenario(), ro); err != nil {
		t.Fatal(err)
	}
	got := out.lines()
	if want := fmt.Sprintf(", 1 violation (%s), at Versions %d (a replay of Options.Replay)", explore.InvariantUser, ro.Versions); !strings.HasSuffix(got[len(got)-1], want) {
		t.Fatalf("replay summary: want %q in it, got:\n%s", want, strings.Join(got, "\n"))
	}
}

// Schedules that break one defect are one violation on the progress
// line, as in the report, and the line says how many schedules found it
// (issue 82: a line said "5 violations" where the report kept 1).
func TestProgressCountsDistinctViolationsAsTheReportKeeps(t *testing.T) {
	s := thriceFooledScenario()
	s.Invariant = func(context.Context, client.Reader) error { return errors.New("always broken") }
	out := newLines()
	tick := make(chan time.Time)
	visits := 0
	res, err := explore.RunTicked(t.Context(), s, explore.Options{Backend: explore.Fake(widgetScheme(t), &testv1.Widget{}), Depth: 2, Budget: searchBound, Parallel: 1, Progress: out}, tick, func() {
		if visits++; visits == 4 { // three schedules counted, each broke it
			tick <- time.Now()
			<-out.first
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	got := out.lines()
	if len(res.Violations) != 1 || len(got) != 2 ||
		!strings.Contains(got[0], " pruned, 1 violation (found by 3 schedules), ") ||
		!strings.Contains(got[1], ", 1 violation (user invariant), ") {
		t.Fatalf("want 1 violation found by 3 schedules, then the summary of the 1 the report keeps (Result: %d); got:\n%s", len(res.Violations), strings.Join(got, "\n"))
	}
}
