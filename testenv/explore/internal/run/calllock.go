package run

import "github.com/statuspatch/statuspatch/testenv/explore/internal/queue"

// callLock is the run's lock of the clients' calls: a reconcile may call
// them from goroutines of its own, and each call holds it while the
// explorer does its own work; the operator's predicates and event
// handlers run without it (queue.Calls says how).
type callLock struct{ queue.Calls }

// call takes the lock for one call of the clients; the caller defers
// what it returns, the release.
func (l *callLock) call() func() { return l.Call() }
