package settle

import "testing"

func TestTokenFirst(t *testing.T) {
	tok := &Token{Path: []string{"status", "writeToken"}, Value: "ours"}
	version := func(uid, token string) Version {
		status := map[string]any{"phase": "x"}
		if token != "" {
			status["writeToken"] = token
		}
		return Version{UID: uid, ResourceVersion: "2", Object: map[string]any{"status": status}}
	}
	keeps := NewSchema(map[string]any{"properties": map[string]any{"status": map[string]any{"properties": map[string]any{"writeToken": map[string]any{"type": "string"}}}}})
	prunes := NewSchema(map[string]any{"properties": map[string]any{"status": map[string]any{"properties": map[string]any{}}}})
	for _, tc := range []struct {
		name       string
		base, next Version
		schema     *Schema
		want       Outcome
	}{
		{"holds ours", version("u", ""), version("u", "ours"), nil, Landed},
		{"holds another", version("u", ""), version("u", "theirs"), nil, Conflict},
		{"holds the base's", version("u", "old"), version("u", "old"), nil, Conflict},
		{"none, the base had one", version("u", "old"), version("u", ""), nil, Conflict},
		{"none, the schema keeps it", version("u", ""), version("u", ""), keeps, Conflict},
		{"none, the schema prunes it", version("u", ""), version("u", ""), prunes, Unknown},
		{"none, no schema", version("u", ""), version("u", ""), nil, Unknown},
		{"made again", version("u", ""), version("v", "ours"), nil, Conflict},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d := tok.first(Write{Base: tc.base, Token: tok}, tc.next, func() *Schema { return tc.schema })
			if d.Outcome != tc.want {
				t.Fatalf("%v (%s), want %v", d.Outcome, d.Why, tc.want)
			}
		})
	}
}
