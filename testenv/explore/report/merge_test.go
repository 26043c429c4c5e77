package report

import (
	"slices"
	"testing"
)

// A merge keeps what each shard's search did not explore, naming the
// report it came from: the shards' counts are their own, not a sum.
func TestMergeNamesEachReportsNotExplored(t *testing.T) {
	a := Report{Shards: []Shard{{Index: 0, Count: 2}}, Ran: 3, NotExplored: []string{"not explored: widget deferred 1 of 6 reconciles"}}
	b := Report{Shards: []Shard{{Index: 1, Count: 2}}, Ran: 4}
	got, err := Merge([]Report{a, b})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"report 0: not explored: widget deferred 1 of 6 reconciles"}
	if got.Ran != 7 || !slices.Equal(got.NotExplored, want) {
		t.Fatalf("merged: ran %d, not explored %q; want 7, %q", got.Ran, got.NotExplored, want)
	}
}
