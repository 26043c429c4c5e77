package patcherit_test

import "sync"

// barrier releases n goroutines together, round after round, so that every
// contender reads before any of them writes: the "two reconciles both saw
// plan == nil" interleaving, made certain instead of left to chance.
type barrier struct {
	mu      sync.Mutex
	cond    *sync.Cond
	n, seen int
	round   int
}

func newBarrier(n int) *barrier {
	b := &barrier{n: n}
	b.cond = sync.NewCond(&b.mu)
	return b
}

func (b *barrier) wait() {
	b.mu.Lock()
	defer b.mu.Unlock()
	round := b.round
	b.seen++
	if b.seen == b.n {
		b.seen = 0
		b.round++
		b.cond.Broadcast()
		return
	}
	for round == b.round {
		b.cond.Wait()
	}
}
