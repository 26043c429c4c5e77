package queue

import "testing"

// TestOperatorRunsWithoutTheLock: inside a call, the operator's code can
// take the lock (a map function that lists), and the call holds it again
// after; outside a call, or on a nil Calls, it just runs.
func TestOperatorRunsWithoutTheLock(t *testing.T) {
	var l Calls
	ran := 0
	l.Operator(func() { ran++ })
	(*Calls)(nil).Operator(func() { ran++ })
	release := l.Call()
	l.Operator(func() {
		defer l.Call()() // would deadlock if the lock were still held
		ran++
	})
	if !l.held || l.mu.TryLock() {
		t.Error("the call does not hold the lock after the operator's code")
	}
	release()
	if l.held || !l.mu.TryLock() {
		t.Fatal("the lock is held after the call's release")
	}
	l.mu.Unlock()
	if ran != 3 {
		t.Errorf("the operator's code ran %d times, want 3", ran)
	}
}
