package informers

import (
	"testing"

	"github.com/statuspatch/statuspatch/testenv/explore/internal/book"
)

// A window serves a Get at the object's version at its point, never
// older than what the informer may serve (low), and a List at the newest
// point no newer than its own, or the oldest there is.
func TestWindowServes(t *testing.T) {
	// Versions v0..v3 recorded at points 2, 5, 9, 12.
	h := &book.History{Versions: make([]map[string]any, 4), Seqs: []int{2, 5, 9, 12}}
	for _, c := range []struct {
		seq, low, want int
	}{
		{seq: 12, low: 0, want: 0}, // the newest
		{seq: 11, low: 0, want: 1}, // v2
		{seq: 5, low: 0, want: 2},  // v1
		{seq: 3, low: 0, want: 3},  // v0
		{seq: 3, low: 2, want: 1},  // the informer served v2: no older
	} {
		if got := WindowLag(h, c.seq, c.low); got != c.want {
			t.Errorf("WindowLag at point %d, low %d = %d, want %d", c.seq, c.low, got, c.want)
		}
	}
	points := []Point{{Seq: 20}, {Seq: 11}, {Seq: 4}} // newest first
	for _, c := range []struct {
		seq, want int
	}{
		{seq: 25, want: 0},
		{seq: 20, want: 0},
		{seq: 15, want: 1},
		{seq: 4, want: 2},
		{seq: 1, want: 2}, // older than every point: the oldest
	} {
		if got := WindowListLag(points, c.seq); got != c.want {
			t.Errorf("WindowListLag at point %d = %d, want %d", c.seq, got, c.want)
		}
	}
	if got := WindowListLag(nil, 3); got != -1 {
		t.Errorf("WindowListLag of no point = %d, want -1", got)
	}
	m := &Model{}
	if got := m.ListSeq(points, 2); got != 10 {
		t.Errorf("ListSeq of the oldest point = %d, want 10 (just before the next point's)", got)
	}
}
