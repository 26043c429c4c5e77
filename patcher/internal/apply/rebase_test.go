package apply

import (
	"encoding/json"
	"reflect"
	"testing"
)

// The no-lock rebase: the decision (cur against base) laid over fresh.
func TestRebaseKeepsWhatTheDecisionDidNotChange(t *testing.T) {
	b := &Fields{
		Keys:     map[string][]string{"status.conditions": {"type"}},
		SetLists: map[string]bool{"status.tags": true},
	}
	dec := func(s string) any {
		var v any
		if err := json.Unmarshal([]byte(s), &v); err != nil {
			t.Fatal(err)
		}
		return v
	}
	cases := map[string]struct{ cur, base, fresh, want string }{
		"unchanged field takes fresh": {`{"phase":"Pending","n":2}`, `{"phase":"Pending","n":1}`, `{"phase":"Running","n":1}`, `{"phase":"Running","n":2}`},
		"field fresh added is kept":   {`{"n":2}`, `{"n":1}`, `{"n":1,"plan":{"id":"p"}}`, `{"n":2,"plan":{"id":"p"}}`},
		"removal":                     {`{}`, `{"n":1}`, `{"n":1,"m":3}`, `{"m":3}`},
		"map the base lacked":         {`{"c":{"b":2}}`, `{}`, `{"c":{"a":1}}`, `{"c":{"a":1,"b":2}}`},
		"keyed item by item": {`{"conditions":[{"type":"A","r":"new"},{"type":"B","r":"old"}]}`, `{"conditions":[{"type":"A","r":"old"},{"type":"B","r":"old"}]}`,
			`{"conditions":[{"type":"B","r":"fresh"},{"type":"C","r":"x"}]}`, `{"conditions":[{"type":"B","r":"fresh"},{"type":"C","r":"x"},{"type":"A","r":"new"}]}`},
		"keyed removal":                 {`{"conditions":[]}`, `{"conditions":[{"type":"A"}]}`, `{"conditions":[{"type":"A"},{"type":"C"}]}`, `{"conditions":[{"type":"C"}]}`},
		"set value by value":            {`{"tags":["a","new"]}`, `{"tags":["a","gone"]}`, `{"tags":["gone","a","theirs"]}`, `{"tags":["a","theirs","new"]}`},
		"atomic list is the decision's": {`{"items":["mine"]}`, `{"items":[]}`, `{"items":["theirs"]}`, `{"items":["mine"]}`},
		// Absent in fresh: the items and fields the decision only read were
		// removed since, and stay so (the oracle's seeds 42 and 322).
		"keyed list fresh lacks": {`{"conditions":[{"type":"Theirs"},{"type":"Mine"}]}`, `{"conditions":[{"type":"Theirs"}]}`, `{"phase":"P"}`,
			`{"phase":"P","conditions":[{"type":"Mine"}]}`},
		"set fresh lacks":         {`{"tags":["theirs","new"]}`, `{"tags":["theirs"]}`, `{}`, `{"tags":["new"]}`},
		"map fresh lacks":         {`{"c":{"a":1,"b":2}}`, `{"c":{"a":1}}`, `{}`, `{"c":{"b":2}}`},
		"map removal fresh lacks": {`{"c":{"a":1}}`, `{"c":{"a":1,"b":2}}`, `{"n":1}`, `{"n":1}`},
		"empty map decided":       {`{"c":{}}`, `{}`, `{}`, `{"c":{}}`},
	}
	for name, tc := range cases {
		got := b.Rebase(dec(tc.cur), dec(tc.base), dec(tc.fresh))
		if !reflect.DeepEqual(got, dec(tc.want)) {
			j, _ := json.Marshal(got)
			t.Errorf("%s: rebase = %s, want %s", name, j, tc.want)
		}
	}
}
