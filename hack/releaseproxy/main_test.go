package main

import (
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
)

func TestUsageErrors(t *testing.T) {
	for _, args := range [][]string{nil, {"bogus"}, {"lock"}, {"use", "-repo", "r"}, {"done", "x"}, {"cache", "-nope"}} {
		var out, errw strings.Builder
		if code := run(args, &out, &errw); code != 2 || !strings.Contains(errw.String(), "usage: releaseproxy") {
			t.Errorf("%q: exit %d, %q; want 2 and the usage", args, code, errw.String())
		}
	}
}

func TestCache(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "c")
	t.Setenv("STATUSPATCH_INSTALL_CACHE", dir)
	var out, errw strings.Builder
	if code := run([]string{"cache"}, &out, &errw); code != 0 || out.String() != dir+"\n" {
		t.Errorf("cache: exit %d, %q, %q", code, out.String(), errw.String())
	}
	if info, err := os.Stat(dir); err != nil || !info.IsDir() {
		t.Errorf("cache made no folder: %v", err)
	}
}

// lock takes the flock on the caller's descriptor, and it stays with the
// caller's open file after the command is done: another open of the lock
// file finds it held until the caller closes its own.
func TestLockStaysWithTheCallersDescriptor(t *testing.T) {
	dir := t.TempDir()
	name := filepath.Join(dir, "lock")
	shell, err := os.OpenFile(name, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
	if err != nil {
		t.Fatal(err)
	}
	// The command's own copy of the descriptor, as a child inherits it.
	fd, err := syscall.Dup(int(shell.Fd()))
	if err != nil {
		t.Fatal(err)
	}
	var out, errw strings.Builder
	if code := run([]string{"lock", "-fd", strconv.Itoa(fd), "-cache", dir}, &out, &errw); code != 0 {
		t.Fatalf("lock: exit %d, %s", code, errw.String())
	}
	_ = syscall.Close(fd) // the command exits
	other, err := os.OpenFile(name, os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = other.Close() }()
	if err := syscall.Flock(int(other.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); !errors.Is(err, syscall.EWOULDBLOCK) {
		t.Fatalf("another open took the lock the caller holds: %v", err)
	}
	_ = shell.Close() // the shell exits
	if err := syscall.Flock(int(other.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		t.Errorf("the lock outlived the caller's descriptor: %v", err)
	}
}
