package queue

import "sync"

// Concurrent calls. A reconcile may call the reconcilers' clients from
// goroutines of its own (JobSet creates its Jobs in parallel), but the
// book, the cache model, the queue and the step's record are not safe for
// concurrent use. Calls serializes the calls: each holds it while the
// explorer does its own work (reads the book, chooses, sends, records),
// and gives it up while the explorer runs the operator's code for a
// write's event (predicates, event handlers and their map functions,
// Router), which may call the clients again, as a map function that
// lists does: that call takes the lock in turn, as a call from another
// goroutine does. Index functions keep the lock: they run inside the
// explorer's walks of the book, and a cache's indexer runs them under its
// own lock too. Concurrent calls are so served one at a time, in the
// order the goroutines reach the lock, which the explorer does not choose
// (docs/explore.md, limits). With one goroutine nothing changes: the same
// code runs in the same order.

// Calls is the lock of a run's calls of the clients. Its zero value is
// unlocked.
type Calls struct {
	mu sync.Mutex
	// held says a call holds mu; only the holder reads or writes it
	// (code outside a call runs when no reconcile does).
	held bool
}

// Call takes the lock for one call of the clients; the caller defers
// what it returns, the release.
func (l *Calls) Call() func() {
	l.acquire()
	return l.release
}

func (l *Calls) acquire() {
	l.mu.Lock()
	l.held = true
}

func (l *Calls) release() {
	l.held = false
	l.mu.Unlock()
}

// Operator runs f, the operator's code, without the lock when the call
// running it holds the lock, and takes the lock again after (also when f
// panics). Outside a call, or on a nil Calls, it just runs f.
func (l *Calls) Operator(f func()) {
	if l == nil || !l.held {
		f()
		return
	}
	l.release()
	defer l.acquire()
	f()
}
