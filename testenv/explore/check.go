package explore

import (
	"testing"
)

// Check explores s and fails t with the minimised schedule and its seed on
// a violation, or on an error. It returns the result.
func Check(t testing.TB, s Scenario, o Options) *Result {
	t.Helper()
	res, err := Run(t.Context(), s, o)
	if err != nil {
		t.Fatalf("explore: %v", err)
	}
	if res.Diverged != "" {
		t.Logf("explore: %s", res.Diverged)
	}
	if res.Violation != nil {
		t.Fatalf("explore: %s", res.Violation)
	}
	t.Logf("explore: %s in %d schedules (%d pruned, exhausted: %t) in %s",
		res.Verdict(), res.Schedules, res.Pruned, res.Exhausted, res.Elapsed)
	return res
}
