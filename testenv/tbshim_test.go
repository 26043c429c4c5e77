package testenv

import (
	"fmt"
	"os"
	"strings"
	"testing"
)

// Fatal from an upstream helper ends only the goroutine runOwned started,
// is recorded, and cleanups run last-first.
func TestTBShimFatalAndCleanups(t *testing.T) {
	s := newTBShim("x", nil, false)
	var order []string
	var dir string
	reachedEnd := false
	completed := runOwned(func() {
		s.Cleanup(func() { order = append(order, "first") })
		dir = s.TempDir()
		s.Cleanup(func() { order = append(order, "second") })
		s.Fatalf("boom %d", 42)
		reachedEnd = true
	})
	if completed || reachedEnd {
		t.Fatalf("completed=%v reachedEnd=%v: Fatalf did not stop the goroutine", completed, reachedEnd)
	}
	if !s.Failed() || strings.Join(s.errors(), ";") != "boom 42" {
		t.Fatalf("failed=%v errors=%q", s.Failed(), s.errors())
	}
	if _, err := os.Stat(dir); err != nil {
		t.Fatalf("TempDir: %v", err)
	}
	s.runCleanups()
	if strings.Join(order, ",") != "second,first" {
		t.Fatalf("cleanup order = %v", order)
	}
	if _, err := os.Stat(dir); !os.IsNotExist(err) {
		t.Fatalf("TempDir not removed: %v", err)
	}
	s.runCleanups() // nothing left, no panic
	if !runOwned(func() {}) {
		t.Fatal("a normal return is not completed")
	}
}

// Errors reach the parent test only until teardown starts.
func TestTBShimForwardsUntilDetached(t *testing.T) {
	parent := &recordingTB{TB: t}
	s := newTBShim("x", parent, false)
	s.Logf("hello %s", "there")
	s.Error("oops")
	s.runCleanups()
	s.Logf("late")
	s.Errorf("late error") // goes to stderr, not to the finished parent
	if got := strings.Join(parent.lines, "|"); got != "log:testenv: hello there|error:testenv: oops" {
		t.Fatalf("parent saw %q", got)
	}
	if !s.Failed() {
		t.Fatal("Error did not mark the shim failed")
	}
}

type recordingTB struct {
	testing.TB
	lines []string
}

func (r *recordingTB) Helper() {}
func (r *recordingTB) Logf(format string, args ...any) {
	r.lines = append(r.lines, "log:"+fmt.Sprintf(format, args...))
}
func (r *recordingTB) Errorf(format string, args ...any) {
	r.lines = append(r.lines, "error:"+fmt.Sprintf(format, args...))
}
