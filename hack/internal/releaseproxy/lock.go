package releaseproxy

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"syscall"
)

// LockName is the lock file in CacheDir.
const LockName = "lock"

// A Lock is an exclusive flock on an open file: held until Unlock, or
// until every descriptor of that open file is closed. flock is per
// open file: two opens of the lock file, in one process or two, take turns.
type Lock struct {
	f    *os.File
	name string
}

// LockFD takes the lock on f, an open file of the lock: at once if it is
// free, else it calls waiting (to say so) and waits for it.
func LockFD(f *os.File, waiting func()) (*Lock, error) {
	if err := lockDescriptor(int(f.Fd()), f.Name(), waiting); err != nil {
		return nil, err
	}
	return &Lock{f: f, name: f.Name()}, nil
}

// lockDescriptor is LockFD on descriptor fd, of the lock file name.
func lockDescriptor(fd int, name string, waiting func()) error {
	err := syscall.Flock(fd, syscall.LOCK_EX|syscall.LOCK_NB)
	if errors.Is(err, syscall.EWOULDBLOCK) {
		if waiting != nil {
			waiting()
		}
		for {
			err = syscall.Flock(fd, syscall.LOCK_EX)
			if !errors.Is(err, syscall.EINTR) {
				break
			}
		}
	}
	if err != nil {
		return fmt.Errorf("locking %s: %w", name, err)
	}
	return nil
}

// LockDir opens dir's lock file (creating dir and the file) and takes the
// lock, as LockFD.
func LockDir(dir string, waiting func()) (*Lock, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("the release cache's folder: %w", err)
	}
	name := filepath.Join(dir, LockName)
	f, err := os.OpenFile(name, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
	if err != nil {
		return nil, fmt.Errorf("the release cache's lock: %w", err)
	}
	l, err := LockFD(f, waiting)
	if err != nil {
		_ = f.Close()
		return nil, err
	}
	return l, nil
}

// Unlock releases the lock and closes its file.
func (l *Lock) Unlock() error {
	err := syscall.Flock(int(l.f.Fd()), syscall.LOCK_UN)
	if cerr := l.f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("unlocking %s: %w", l.name, err)
	}
	return nil
}

// Waiting is the message a run prints when another holds the lock of the
// release cache in dir.
func Waiting(dir string) string {
	return fmt.Sprintf("release cache: waiting for another run using %s (hack/install-test.sh, release.sh, gomod.sh, adopt-lines.sh, newcomer-test.sh)", dir)
}
