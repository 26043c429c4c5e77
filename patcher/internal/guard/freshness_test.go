package guard

import (
	"strconv"
	"testing"

	"k8s.io/apimachinery/pkg/types"
)

func compareInts(a, b string) (int, error) {
	x, err := strconv.Atoi(a)
	if err != nil {
		return 0, err
	}
	y, err := strconv.Atoi(b)
	if err != nil {
		return 0, err
	}
	switch {
	case x < y:
		return -1, nil
	case x > y:
		return 1, nil
	}
	return 0, nil
}

// A read older than the own write is stale only when the read began after
// the write was recorded; never when its start is unknown.
func TestCheckRead(t *testing.T) {
	own := OwnWrite{UID: "u", ResourceVersion: "10", Seq: 5}
	for _, tc := range []struct {
		uid         types.UID
		rv          string
		seq         uint64
		known       bool
		want        ReadState
		wantWritten string
	}{
		{"u", "10", 5, true, ReadCurrent, ""},
		{"u", "11", 5, true, ReadCurrent, ""},
		{"u", "9", 5, true, ReadStale, "10"},
		{"u", "9", 4, true, ReadRaced, "10"},
		{"u", "9", 5, false, ReadRaced, "10"},
		{"u", "x", 5, true, ReadCurrent, ""}, // not comparable: not judged
		{"v", "9", 5, true, ReadCurrent, ""}, // another object of that name
		{"", "9", 5, true, ReadCurrent, ""},
		{"u", "", 5, true, ReadCurrent, ""},
	} {
		state, written := CheckRead(own, tc.uid, tc.rv, tc.seq, tc.known, compareInts)
		if state != tc.want || written != tc.wantWritten {
			t.Errorf("CheckRead(%+v, %q, %q, %d, %v) = %d, %q; want %d, %q",
				own, tc.uid, tc.rv, tc.seq, tc.known, state, written, tc.want, tc.wantWritten)
		}
	}
	if state, _ := CheckRead(OwnWrite{}, "u", "1", 5, true, compareInts); state != ReadCurrent {
		t.Errorf("no own write: %d", state)
	}
}
