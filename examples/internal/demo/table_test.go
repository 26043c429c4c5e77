package demo

import (
	"strings"
	"testing"
	"time"
)

// The table has a column per variant and a row per measure, and the legend
// explains every row and the patcher's conflicts.
func TestWriteTableLegend(t *testing.T) {
	var b strings.Builder
	results := []Result{
		{Variant: Patcher, Conflicts: 7, Causes: [numCauses]int64{OtherManager: 4, FleetOtherManager: 2, Unknown: 1}, SeenInCache: 1, Wall: 3 * time.Second},
		{Variant: BlindMergeFrom, PlansOverwritten: 3, Wall: 4 * time.Second},
	}
	if err := WriteTable(&b, Config{Rollouts: 5}, results); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	table, legend, ok := strings.Cut(out, "\nRows:\n")
	if !ok {
		t.Fatalf("no legend:\n%s", out)
	}
	for _, rw := range rows {
		if !strings.Contains(table, rw.label) {
			t.Errorf("table has no row %q", rw.label)
		}
		if !strings.Contains(legend, rw.label+"  ") || !strings.Contains(legend, rw.legend) {
			t.Errorf("legend does not explain %q", rw.label)
		}
	}
	for _, want := range []string{Patcher.String(), BlindMergeFrom.String(), "0/5", "Where the patcher's conflicts come from",
		"wall time 0.75x; 7 conflicts, 6 with the other manager, 1 of those already in the loser's cache"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
}
