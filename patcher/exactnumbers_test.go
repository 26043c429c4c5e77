package patcher

import (
	"testing"

	"github.com/statuspatch/statuspatch/patcher/internal/diff"
)

// Numbers are compared exactly when the stored status is checked against
// what was sent: 2^53 and 2^53+1 are one float64, so a server that stored
// the one for the other would go unreported by a float comparison.
func TestDivergenceComparesBigIntegersExactly(t *testing.T) {
	a, err := decodeJSON([]byte(`{"n":9007199254740993}`))
	if err != nil {
		t.Fatal(err)
	}
	b, err := decodeJSON([]byte(`{"n":9007199254740992}`))
	if err != nil {
		t.Fatal(err)
	}
	out := diff.Diverged(a, b)
	if len(out) != 1 || out[0].Path != "status.n" {
		t.Fatalf("divergences %+v; want status.n", out)
	}
	out = diff.Diverged(a, a)
	if len(out) != 0 {
		t.Fatalf("divergences %+v of a value against itself; want none", out)
	}
	if _, err := decodeObject([]byte(`[1]`)); err == nil {
		t.Fatal("decodeObject of an array: no error")
	}
	if m, err := decodeObject([]byte(`null`)); err != nil || m != nil {
		t.Fatalf("decodeObject(null) = %v, %v; want nil, nil", m, err)
	}
}
