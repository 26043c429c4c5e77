package diff

import (
	"bytes"
	"encoding/json"
	"reflect"
	"testing"
)

func decodeExact(t *testing.T, s string) any {
	t.Helper()
	dec := json.NewDecoder(bytes.NewReader([]byte(s)))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		t.Fatal(err)
	}
	return v
}

// Each cause, nested paths, sorted; a value against itself: none.
func TestDiverged(t *testing.T) {
	sent := decodeExact(t, `{"phase":"Ready","gone":1,"plan":{"n":2,"steps":["a"]},"nil":null}`)
	stored := decodeExact(t, `{"phase":"Ready","plan":{"n":3,"steps":["a"],"def":true},"nil":"x","added":0}`)
	want := []Divergence{
		{Path: "status.added", Cause: "defaulted"},
		{Path: "status.gone", Cause: "pruned"},
		{Path: "status.nil", Cause: "defaulted"},
		{Path: "status.plan.def", Cause: "defaulted"},
		{Path: "status.plan.n", Cause: "rewritten"},
	}
	if got := Diverged(sent, stored); !reflect.DeepEqual(got, want) {
		t.Errorf("Diverged = %+v\nwant %+v", got, want)
	}
	if got := Diverged(sent, sent); len(got) != 0 {
		t.Errorf("Diverged of a value against itself = %+v, want none", got)
	}
	if got := Diverged(sent, nil); !reflect.DeepEqual(got, []Divergence{{Path: "status", Cause: "pruned"}}) {
		t.Errorf("Diverged against no status = %+v", got)
	}
}
