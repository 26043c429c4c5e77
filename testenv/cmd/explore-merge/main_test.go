package main

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"

	"github.com/statuspatch/statuspatch/testenv/explore/report"
)

func write(t *testing.T, dir, name string, r report.Report) string {
	t.Helper()
	path := filepath.Join(dir, name)
	if err := report.Write(path, r); err != nil {
		t.Fatal(err)
	}
	return path
}

// Two shards' reports, a violation found in both: merged, it is named
// once, at the schedule that found it first, and the command exits 1.
func TestMerge(t *testing.T) {
	dir := t.TempDir()
	lost := report.Violation{Invariant: "no lost write", Message: "status.items", Replay: "w:ns/w@0 w:ns/w@1", Schedule: 4}
	loop := report.Violation{Invariant: "no error loop", Message: "retried forever", Replay: "-", Schedule: 0}
	a := write(t, dir, "a.json", report.Report{Seed: 7, Schedules: 10, Shards: []report.Shard{{Index: 0, Count: 2}}, Ran: 5, Violations: []report.Violation{loop, lost}})
	later := lost
	later.Schedule = 7
	b := write(t, dir, "b.json", report.Report{Seed: 7, Schedules: 10, Shards: []report.Shard{{Index: 1, Count: 2}}, Ran: 5, Violations: []report.Violation{later}})
	out := filepath.Join(dir, "merged.json")
	var stdout, stderr bytes.Buffer
	if code := run([]string{"-o", out, b, a}, &stdout, &stderr); code != 1 {
		t.Fatalf("exit %d, want 1 (violations)\n%s%s", code, stdout.String(), stderr.String())
	}
	m, err := report.Read(out)
	if err != nil {
		t.Fatal(err)
	}
	if m.Ran != 10 || len(m.Shards) != 2 || len(m.Violations) != 2 || m.Violations[0].Invariant != loop.Invariant || m.Violations[1].Schedule != 4 {
		t.Fatalf("merged: %+v", m)
	}
	if strings.Count(stdout.String(), "no lost write violated") != 1 || !strings.Contains(stdout.String(), `explore.Options{Replay: "w:ns/w@0 w:ns/w@1"}`) {
		t.Fatalf("printed:\n%s", stdout.String())
	}

	stdout.Reset()
	if code := run([]string{a, a}, &stdout, &stderr); code != 2 || !strings.Contains(stderr.String(), "shard 0/2 twice") {
		t.Fatalf("a shard twice: exit %d, %s", code, stderr.String())
	}
	stderr.Reset()
	if code := run([]string{a}, &stdout, &stderr); code != 2 || !strings.Contains(stderr.String(), "shard 1/2 missing") {
		t.Fatalf("a shard missing: exit %d, %s", code, stderr.String())
	}
	clean := write(t, dir, "clean.json", report.Report{Seed: 1, Shards: []report.Shard{{Index: 0, Count: 1}}, Ran: 3})
	if code := run([]string{clean}, &stdout, &stderr); code != 0 {
		t.Fatalf("no violations: exit %d", code)
	}
}
