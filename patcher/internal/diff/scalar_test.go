package diff

import (
	"encoding/json"
	"math/rand/v2"
	"reflect"
	"testing"

	jsonpatch "github.com/evanphx/json-patch/v5"
)

// scalarStatus holds top-level fields of every kind the scalar patch takes
// (strings, numbers, bools, a ",string" number, an omitted field) beside
// ones it leaves to CreateMergePatch (a list, an object, an interface).
type scalarStatus struct {
	Phase   string            `json:"phase,omitempty"`
	Note    string            `json:"note"`
	Ready   int32             `json:"ready,omitempty"`
	Ratio   float64           `json:"ratio,omitempty"`
	Big     int64             `json:"big,omitempty,string"`
	Done    bool              `json:"done,omitempty"`
	Any     any               `json:"any,omitempty"`
	Items   []string          `json:"items,omitempty"`
	Labels  map[string]string `json:"labels,omitempty"`
	Pointer *int              `json:"pointer,omitempty"`
}

// Strings that encoding/json escapes, and ones it writes as they are.
var scalarStrings = []string{"", "a", "Ready", "null", "x\"y", "a\\b", "<tag>&", "line\nbreak", "\u2028", "caf\u00e9", "\xff\xfe", "\u65e5\u672c", "tab\t", "\x00", "{}", "[1]", "1e3"}

func randomScalarStatus(r *rand.Rand) scalarStatus {
	pick := func() string { return scalarStrings[r.IntN(len(scalarStrings))] }
	s := scalarStatus{Phase: pick(), Note: pick(), Ready: int32(r.IntN(3)) - 1, Done: r.IntN(2) == 0, Big: r.Int64N(3) << 60}
	switch r.IntN(4) {
	case 1:
		s.Ratio = float64(r.IntN(3)) / 3 * 1e21
	case 2:
		s.Ratio = -1e-7
	}
	switch r.IntN(6) {
	case 1:
		s.Any = pick()
	case 2:
		s.Any = r.IntN(3)
	case 3:
		s.Any = map[string]any{"k": pick()}
	case 4:
		s.Any = []any{pick()}
	}
	if r.IntN(3) == 0 {
		s.Items = []string{pick()}
	}
	if r.IntN(3) == 0 {
		s.Labels = map[string]string{pick(): pick()}
	}
	if r.IntN(3) == 0 {
		n := r.IntN(2)
		s.Pointer = &n
	}
	return s
}

// The patch of changed scalar fields, made without CreateMergePatch, is
// byte for byte the one CreateMergePatch makes of the same fields and the
// one the whole-status diff makes, for strings encoding/json escapes and
// for fields that change type or are omitted.
func TestScalarPatchIsCreateMergePatchs(t *testing.T) {
	plan := PlanFor(reflect.TypeFor[scalarStatus]())
	if plan == nil {
		t.Fatal("scalarStatus is not eligible")
	}
	r := rand.New(rand.NewPCG(81, 1))
	scalar := 0
	for i := 0; i < 20000; i++ {
		base, cur := randomScalarStatus(r), randomScalarStatus(r)
		if r.IntN(2) == 0 { // a few fields changed, the common case
			cur = base
			cur.Phase, cur.Ready = scalarStrings[r.IntN(len(scalarStrings))], cur.Ready+1
		}
		var d Fields
		if !d.Reflect(plan, &base, &cur) || d.decline {
			continue
		}
		got, changed, ok := d.Patch()
		if !ok {
			t.Fatalf("case %d: the diff declined its patch", i)
		}
		if !changed {
			got = []byte("{}")
		}
		if !d.complex && len(d.members) > 0 {
			scalar++
		}
		fields, err := jsonpatch.CreateMergePatch(object(d.base), object(d.cur))
		if err != nil {
			t.Fatal(err)
		}
		b, _ := json.Marshal(&base)
		c, _ := json.Marshal(&cur)
		whole, err := StatusMergePatch(b, c)
		if err != nil {
			t.Fatal(err)
		}
		if string(got) != string(fields) || string(got) != string(whole) {
			t.Fatalf("case %d: patch %s, CreateMergePatch of the fields %s, whole-status diff %s\nbase %s\ncur  %s", i, got, fields, whole, b, c)
		}
	}
	if scalar < 5000 {
		t.Fatalf("only %d of 20000 cases took the scalar patch", scalar)
	}
}
