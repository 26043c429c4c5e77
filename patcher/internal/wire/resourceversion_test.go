package wire

import (
	"math/big"
	"testing"
)

func TestCompareResourceVersions(t *testing.T) {
	for _, tc := range []struct {
		a, b    string
		want    int
		wantErr bool
	}{
		{a: "1", b: "1", want: 0},
		{a: "1", b: "2", want: -1},
		{a: "10", b: "9", want: 1},
		{a: "9", b: "10", want: -1},
		{a: "123456789012345678901234567890", b: "123456789012345678901234567891", want: -1},
		{a: "99", b: "100", want: -1},
		{a: "", b: "1", wantErr: true},
		{a: "1", b: "", wantErr: true},
		{a: "0", b: "1", wantErr: true},
		{a: "01", b: "1", wantErr: true},
		{a: "-1", b: "1", wantErr: true},
		{a: "+1", b: "1", wantErr: true},
		{a: "1a", b: "1", wantErr: true},
		{a: "1", b: " 1", wantErr: true},
		{a: "١", b: "1", wantErr: true}, // an Arabic-Indic digit is not a decimal digit here
	} {
		got, err := CompareResourceVersions(tc.a, tc.b)
		if (err != nil) != tc.wantErr {
			t.Errorf("CompareResourceVersions(%q, %q) error = %v, want error %v", tc.a, tc.b, err, tc.wantErr)
			continue
		}
		if got != tc.want {
			t.Errorf("CompareResourceVersions(%q, %q) = %d, want %d", tc.a, tc.b, got, tc.want)
		}
	}
}

// FuzzCompareResourceVersions checks the rule against integer arithmetic:
// for well-formed versions the order is the integers' order, and anything
// else is an error.
func FuzzCompareResourceVersions(f *testing.F) {
	f.Add("1", "2")
	f.Add("100", "99")
	f.Add("007", "7")
	f.Add("", "0")
	f.Fuzz(func(t *testing.T, a, b string) {
		got, err := CompareResourceVersions(a, b)
		x, okA := oracleVersion(a)
		y, okB := oracleVersion(b)
		if !okA || !okB {
			if err == nil {
				t.Fatalf("CompareResourceVersions(%q, %q) = %d, want an error", a, b, got)
			}
			return
		}
		if err != nil {
			t.Fatalf("CompareResourceVersions(%q, %q): %v", a, b, err)
		}
		if want := x.Cmp(y); got != want {
			t.Fatalf("CompareResourceVersions(%q, %q) = %d, want %d", a, b, got, want)
		}
	})
}

// oracleVersion parses a KEP-5504 resourceVersion: a positive decimal
// integer written without sign or leading zero.
func oracleVersion(s string) (*big.Int, bool) {
	n, ok := new(big.Int).SetString(s, 10)
	if !ok || n.Sign() <= 0 || n.String() != s {
		return nil, false
	}
	return n, true
}
