package book

import "testing"

// Values decide what is time-like, not names: RFC 3339 times (metav1.Time,
// MicroTime) and durations with a unit; a number, a word or a bare digit
// is a decision.
func TestTimeLike(t *testing.T) {
	for v, want := range map[any]bool{
		"2026-01-01T00:00:01Z": true, "2026-01-01T00:00:01.123456Z": true, "2026-01-01T02:00:00+02:00": true,
		"1m30s": true, "250ms": true,
		"5": false, "Running": false, "": false, int64(1700000000): false, "2026-01-01": false,
	} {
		if got := timeLike(v); got != want {
			t.Errorf("timeLike(%#v) = %t, want %t", v, got, want)
		}
	}
}
