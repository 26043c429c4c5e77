package wire

import (
	"bytes"
	"io"
	"testing"
)

func TestIsNil(t *testing.T) {
	var p *bytes.Buffer
	var r io.Reader = p // an interface holding a typed nil
	var m map[string]int
	cases := []struct {
		name string
		v    any
		want bool
	}{
		{"nil", nil, true},
		{"nil pointer", p, true},
		{"typed nil in an interface", r, true},
		{"nil map", m, true},
		{"nil func", (func())(nil), true},
		{"pointer", &bytes.Buffer{}, false},
		{"empty map", map[string]int{}, false},
		{"zero int", 0, false},
		{"empty string", "", false},
	}
	for _, c := range cases {
		if got := IsNil(c.v); got != c.want {
			t.Errorf("IsNil(%s) = %v, want %v", c.name, got, c.want)
		}
	}
}
