package testenv

import (
	"fmt"
	"os"
	"runtime"
	"strings"
	"sync"
	"testing"
)

// tbShim is the testing.TB handed to upstream helpers that insist on one
// (the embedded etcd of k8s.io/apiserver, zaptest, the apiextensions test
// server). It lets those helpers run outside a test (StartServer) and keeps
// their cleanups under our control in both cases:
//
//   - Cleanup collects functions that runCleanups calls in reverse order.
//   - Error/Errorf/Fail record a failure; Fatal/Fatalf/FailNow record one and
//     call runtime.Goexit, so they must only be reached from a goroutine
//     that testenv started for that purpose (see runOwned), exactly as
//     testing.T requires of its own FailNow.
//   - Log/Logf go to parent.Logf while a parent test is alive (so etcd's
//     error logs show up under the test), else to stderr when verbose, else
//     nowhere. Errors reported after start-up are forwarded to the parent
//     test too.
//
// Methods that the helpers do not call are left to the embedded nil
// testing.TB and panic if anyone ever does.
type tbShim struct {
	testing.TB // nil; only satisfies the unexported method

	name    string
	parent  testing.TB // may be nil
	verbose bool

	mu       sync.Mutex
	failed   bool
	errs     []string
	cleanups []func()
	detached bool // after teardown: never touch parent again
}

func newTBShim(name string, parent testing.TB, verbose bool) *tbShim {
	return &tbShim{name: name, parent: parent, verbose: verbose}
}

func (s *tbShim) Helper()      {}
func (s *tbShim) Name() string { return s.name }

func (s *tbShim) Log(args ...any) { s.Logf("%s", strings.TrimSuffix(fmt.Sprintln(args...), "\n")) }

func (s *tbShim) Logf(format string, args ...any) {
	s.mu.Lock()
	parent := s.liveParent()
	s.mu.Unlock()
	switch {
	case parent != nil:
		parent.Helper()
		parent.Logf("testenv: "+format, args...)
	case s.verbose:
		fmt.Fprintf(os.Stderr, "testenv: "+format+"\n", args...)
	}
}

func (s *tbShim) Error(args ...any) { s.Errorf("%s", strings.TrimSuffix(fmt.Sprintln(args...), "\n")) }

func (s *tbShim) Errorf(format string, args ...any) {
	msg := fmt.Sprintf(format, args...)
	s.mu.Lock()
	s.failed = true
	s.errs = append(s.errs, msg)
	parent := s.liveParent()
	s.mu.Unlock()
	switch {
	case parent != nil:
		parent.Helper()
		parent.Errorf("testenv: %s", msg)
	default:
		fmt.Fprintf(os.Stderr, "testenv: error: %s\n", msg)
	}
}

func (s *tbShim) Fail() {
	s.mu.Lock()
	s.failed = true
	s.mu.Unlock()
}

func (s *tbShim) Failed() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.failed
}

func (s *tbShim) FailNow() {
	s.Fail()
	runtime.Goexit()
}

func (s *tbShim) Fatal(args ...any) {
	s.record(strings.TrimSuffix(fmt.Sprintln(args...), "\n"))
	runtime.Goexit()
}

func (s *tbShim) Fatalf(format string, args ...any) {
	s.record(fmt.Sprintf(format, args...))
	runtime.Goexit()
}

// record notes a fatal failure without forwarding it: the caller of runOwned
// turns it into an error.
func (s *tbShim) record(msg string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.failed = true
	s.errs = append(s.errs, msg)
}

func (s *tbShim) Cleanup(f func()) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.cleanups = append(s.cleanups, f)
}

func (s *tbShim) TempDir() string {
	dir, err := os.MkdirTemp("", "testenv-")
	if err != nil {
		s.Fatalf("TempDir: %v", err)
	}
	s.Cleanup(func() { _ = os.RemoveAll(dir) })
	return dir
}

// errors returns the failures recorded so far.
func (s *tbShim) errors() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.errs...)
}

// A shimMark is how far a tbShim's failures and cleanups had gone when
// an attempt began (mark), so that the attempt, once it failed, can be
// undone (undo) and made again.
type shimMark struct {
	errs, cleanups int
	failed         bool
}

func (s *tbShim) mark() shimMark {
	s.mu.Lock()
	defer s.mu.Unlock()
	return shimMark{errs: len(s.errs), cleanups: len(s.cleanups), failed: s.failed}
}

// errorsSince returns the failures recorded since m.
func (s *tbShim) errorsSince(m shimMark) []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	if m.errs > len(s.errs) {
		return nil
	}
	return append([]string(nil), s.errs[m.errs:]...)
}

// undo runs the cleanups registered since m, last first, and forgets the
// failures recorded since m: the attempt they belong to is over.
func (s *tbShim) undo(m shimMark) {
	s.mu.Lock()
	var fs []func()
	if m.cleanups <= len(s.cleanups) {
		fs = s.cleanups[m.cleanups:]
		s.cleanups = s.cleanups[:m.cleanups:m.cleanups]
	}
	if m.errs <= len(s.errs) {
		s.errs = s.errs[:m.errs:m.errs]
	}
	s.failed = m.failed
	s.mu.Unlock()
	for i := len(fs) - 1; i >= 0; i-- {
		fs[i]()
	}
}

// runCleanups detaches from the parent and runs the collected cleanups, last
// first. It may be called more than once.
func (s *tbShim) runCleanups() {
	s.mu.Lock()
	s.detached = true
	fs := s.cleanups
	s.cleanups = nil
	s.mu.Unlock()
	for i := len(fs) - 1; i >= 0; i-- {
		fs[i]()
	}
}

func (s *tbShim) liveParent() testing.TB {
	if s.detached {
		return nil
	}
	return s.parent
}

// runOwned runs f on a new goroutine, so that Fatal/FailNow from upstream
// helpers (runtime.Goexit) end only that goroutine, and reports whether f
// returned normally. A panic in f is re-raised on the calling goroutine.
func runOwned(f func()) (completed bool) {
	done := make(chan struct{})
	var panicked any
	go func() {
		defer close(done)
		defer func() {
			if r := recover(); r != nil {
				panicked = r
			}
		}()
		f()
		completed = true
	}()
	<-done
	if panicked != nil {
		panic(panicked)
	}
	return completed
}
