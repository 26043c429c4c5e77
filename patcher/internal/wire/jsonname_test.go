package wire

import (
	"reflect"
	"testing"
)

func TestJSONName(t *testing.T) {
	type s struct {
		Tagged   int `json:"tagged,omitempty"`
		NoName   int `json:",omitempty"`
		Skipped  int `json:"-"`
		Untagged int
	}
	want := []string{"tagged", "NoName", "Skipped", "Untagged"}
	typ := reflect.TypeOf(s{})
	for i := range typ.NumField() {
		if got := JSONName(typ.Field(i)); got != want[i] {
			t.Errorf("JSONName(%s) = %q, want %q", typ.Field(i).Name, got, want[i])
		}
	}
}
