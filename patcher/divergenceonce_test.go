package patcher

import (
	"strconv"
	"testing"
)

// The once-per-process set of logged divergences is bounded: paths carry
// map keys and list indexes, which grow with the user's data.
func TestDivergenceOnceSetIsBounded(t *testing.T) {
	s := &onceSet{max: 8}
	if !s.add("Widget status.phase") || s.add("Widget status.phase") {
		t.Fatal("want a new key reported new once, then seen")
	}
	for i := 0; i < 100; i++ {
		s.add("Widget status.counters.k" + strconv.Itoa(i))
		if n := s.len(); n > 8 {
			t.Fatalf("after %d keys the set holds %d, want at most 8", i+2, n)
		}
	}
	if reportedDivergences.max != maxReportedDivergences || maxReportedDivergences <= 0 {
		t.Fatalf("the process-wide set is not bounded: max %d", reportedDivergences.max)
	}
}
