package releaseproxy

import (
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// Two holders of the release cache's lock take turns: the second, finding
// it held, says so (waiting) and takes it only once the first lets go. The
// steps are ordered by channels, not by sleeps: the second's waiting call
// is the barrier.
func TestLockSerializes(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "cache")
	var mu sync.Mutex
	var events []string
	event := func(e string) {
		mu.Lock()
		defer mu.Unlock()
		events = append(events, e)
	}
	first, err := LockDir(dir, func() { t.Error("the first holder waited") })
	if err != nil {
		t.Fatal(err)
	}
	event("first locked")
	waiting, took := make(chan struct{}), make(chan *Lock, 1)
	go func() {
		// Another open of the lock file, as another run's: flock is per
		// open file, so this is a second holder, in this process or not.
		f, err := os.OpenFile(filepath.Join(dir, LockName), os.O_WRONLY|os.O_APPEND, 0)
		if err != nil {
			t.Error(err)
			close(waiting)
			took <- nil
			return
		}
		l, err := LockFD(f, func() { event("second waiting"); close(waiting) })
		if err != nil {
			t.Error(err)
		}
		event("second locked")
		took <- l
	}()
	select {
	case <-waiting:
	case l := <-took:
		_ = l.Unlock()
		t.Fatal("the second holder took the lock while the first held it, without waiting")
	}
	select {
	case <-took:
		t.Fatal("the second holder took the lock while the first held it")
	default:
	}
	event("first unlocking")
	if err := first.Unlock(); err != nil {
		t.Fatal(err)
	}
	second := <-took
	if second == nil {
		t.Fatal("the second holder got no lock")
	}
	if err := second.Unlock(); err != nil {
		t.Error(err)
	}
	want := "first locked, second waiting, first unlocking, second locked"
	if got := strings.Join(events, ", "); got != want {
		t.Errorf("events: %s\nwant:   %s", got, want)
	}
	// Free again: taken at once.
	again, err := LockDir(dir, func() { t.Error("waited for a free lock") })
	if err != nil {
		t.Fatal(err)
	}
	_ = again.Unlock()
}

// The lock file's folder that cannot be made is an error naming it.
func TestLockDirError(t *testing.T) {
	file := filepath.Join(t.TempDir(), "f")
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := LockDir(filepath.Join(file, "cache"), nil)
	if err == nil || !strings.Contains(err.Error(), file) {
		t.Errorf("LockDir under a file: %v, want an error naming %s", err, file)
	}
}
