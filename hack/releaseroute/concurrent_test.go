package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync"
	"testing"
	"time"
)

func TestInstallMode(t *testing.T) {
	for in, want := range map[string]string{"": "full", "full": "full", "quick": "quick"} {
		if got, err := installMode(in); err != nil || got != want {
			t.Errorf("installMode(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
	if _, err := installMode("fast"); err == nil || !strings.Contains(err.Error(), "RELEASE_CONCURRENCY_INSTALL is fast; want full or quick") {
		t.Errorf("installMode(fast): %v", err)
	}
}

// The jobs run at once: each waits, before it ends, until all have
// started (a barrier no sequential runner passes; the guard's timeout
// fails such a runner instead of hanging). Each keeps its own log.
func TestRunJobsAtOnce(t *testing.T) {
	const n = 3
	var started sync.WaitGroup
	started.Add(n)
	all := make(chan struct{})
	go func() { started.Wait(); close(all) }()
	var jobs []job
	for i := range n {
		jobs = append(jobs, job{name: fmt.Sprintf("j%d", i), what: "test", run: func(ctx context.Context, log io.Writer) error {
			started.Done()
			select {
			case <-all:
			case <-time.After(30 * time.Second):
				return errors.New("the other jobs did not start while this one ran")
			}
			fmt.Fprintf(log, "log of j%d\n", i)
			if i == 1 {
				return errors.New("j1 failed")
			}
			return nil
		}})
	}
	var out strings.Builder
	results := runJobs(context.Background(), jobs, &out)
	for i, r := range results {
		if r.name != jobs[i].name || r.log != fmt.Sprintf("log of j%d\n", i) {
			t.Errorf("result %d: %s with log %q", i, r.name, r.log)
		}
		if (r.err != nil) != (i == 1) {
			t.Errorf("%s: error %v", r.name, r.err)
		}
	}
	if got := strings.Count(out.String(), "started j"); got != n {
		t.Errorf("%d started lines:\n%s", got, out.String())
	}
}

// A failed job is named, its log printed indented; the lock's waits are
// counted across the logs.
func TestReport(t *testing.T) {
	var out strings.Builder
	err := report([]result{
		{name: "a", took: 2 * time.Second, log: "release cache: waiting for another run using /c\nfine\n"},
		{name: "b", took: time.Second, err: errors.New("exit status 1"), log: "line one\nwaiting for another run\n"},
	}, &out)
	if err == nil || err.Error() != "failed: b" {
		t.Errorf("report: %v, want failed: b", err)
	}
	for _, want := range []string{"ok: a passed (2s)\n", "FAIL: b (1s): exit status 1; its log:\n    line one\n    waiting for another run\n", "waits for the release cache's lock: 2\n"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("report lacks %q:\n%s", want, out.String())
		}
	}
	out.Reset()
	if err := report([]result{{name: "a"}}, &out); err != nil {
		t.Errorf("all passed: %v", err)
	}
}
