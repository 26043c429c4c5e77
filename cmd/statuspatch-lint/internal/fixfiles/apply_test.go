package fixfiles

import (
	"slices"
	"testing"
)

// mergeEdits merges a fix's edits into those accepted as the checker's
// -fix does: an identical edit (two fixes adding the same import) is made
// once, insertions at one point are both made in the order accepted, and
// two different edits of the same text conflict.
func TestMergeEdits(t *testing.T) {
	imp := fileEdit{10, 10, "import \"p\"\n"}
	for _, tc := range []struct {
		name          string
		accepted, fix []fileEdit
		want          []fileEdit
		wantOK        bool
	}{
		{"identical", []fileEdit{imp, {50, 60, "a"}}, []fileEdit{{80, 90, "b"}, imp}, []fileEdit{imp, {50, 60, "a"}, {80, 90, "b"}}, true},
		{"two insertions", []fileEdit{imp}, []fileEdit{{10, 10, "import \"q\"\n"}}, []fileEdit{imp, {10, 10, "import \"q\"\n"}}, true},
		{"adjacent", []fileEdit{{0, 5, "x"}}, []fileEdit{{5, 9, "y"}}, []fileEdit{{0, 5, "x"}, {5, 9, "y"}}, true},
		{"same text, other edit", []fileEdit{{50, 60, "a"}}, []fileEdit{{50, 60, "b"}}, nil, false},
		{"overlap", []fileEdit{{50, 60, "a"}}, []fileEdit{{55, 70, "b"}}, nil, false},
	} {
		got, ok := mergeEdits(map[string][]fileEdit{"f.go": tc.accepted}, map[string][]fileEdit{"f.go": tc.fix})
		if ok != tc.wantOK || ok && !slices.Equal(got["f.go"], tc.want) {
			t.Errorf("%s: mergeEdits = %v, %v; want %v, %v", tc.name, got["f.go"], ok, tc.want, tc.wantOK)
		}
	}
}
