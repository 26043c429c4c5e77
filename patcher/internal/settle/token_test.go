package settle

import (
	"strings"
	"testing"
)

// The token decides "another request wrote the first version after the
// base" from a version without any token only where the server has shown
// it stores the field (Stored); a schema may rule that out (the version
// read, or the storage version, without the field), never in (issue 81).
func TestTokenFirst(t *testing.T) {
	version := func(uid, token string) Version {
		status := map[string]any{"phase": "x"}
		if token != "" {
			status["writeToken"] = token
		}
		return Version{UID: uid, ResourceVersion: "2", Object: map[string]any{"status": status}}
	}
	withToken := map[string]any{"properties": map[string]any{"status": map[string]any{"properties": map[string]any{"writeToken": map[string]any{"type": "string"}}}}}
	without := map[string]any{"properties": map[string]any{"status": map[string]any{"properties": map[string]any{}}}}
	keeps := NewSchema(withToken)
	prunes := NewSchema(without)
	storagePrunes := NewSchema(withToken).WithStorage("v1beta1", without)
	storagePrunes.CRD = "widgets.testing.statuspatch.dev"
	for _, tc := range []struct {
		name       string
		stored     bool
		pruned     string
		base, next Version
		schema     *Schema
		want       Outcome
		why        string
	}{
		{"holds ours", false, "", version("u", ""), version("u", "ours"), nil, Landed, ""},
		{"holds another", false, "", version("u", ""), version("u", "theirs"), nil, Conflict, ""},
		{"holds the base's", false, "", version("u", "old"), version("u", "old"), nil, Conflict, ""},
		{"none, the base had one, not shown stored", false, "", version("u", "old"), version("u", ""), nil, Unknown, "no answer"},
		{"none, the schema keeps it, not shown stored", false, "", version("u", ""), version("u", ""), keeps, Unknown, "no answer"},
		{"none, shown stored, no schema (403)", true, "", version("u", ""), version("u", ""), nil, Conflict, ""},
		{"none, shown stored, the schema keeps it", true, "", version("u", ""), version("u", ""), keeps, Conflict, ""},
		{"none, shown stored, the schema prunes it", true, "", version("u", ""), version("u", ""), prunes, Unknown, "the version the patcher writes"},
		{"none, shown stored, the storage version prunes it", true, "", version("u", ""), version("u", ""), storagePrunes, Unknown,
			"widgets.testing.statuspatch.dev in the cluster has no status.writeToken in its storage version v1beta1"},
		{"none, an answer lacked it", false, "an answer lacked it", version("u", ""), version("u", ""), keeps, Unknown, "an answer lacked it"},
		{"made again", false, "", version("u", ""), version("v", "ours"), nil, Conflict, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tok := &Token{Path: []string{"status", "writeToken"}, Value: "ours", Stored: tc.stored, Pruned: tc.pruned}
			d := tok.first(Write{Base: tc.base, Token: tok}, tc.next, func() *Schema { return tc.schema })
			if d.Outcome != tc.want || !strings.Contains(d.Why, tc.why) {
				t.Fatalf("%v (%s), want %v saying %q", d.Outcome, d.Why, tc.want, tc.why)
			}
		})
	}
}

// The token's own value is no change where the server is not known to
// store it: a removal-only decision that carries it stamps nothing.
func TestTheTokenIsAChangeOnlyWhereStored(t *testing.T) {
	base := Version{UID: "u", ResourceVersion: "1", Object: map[string]any{"status": map[string]any{
		"members": []any{map[string]any{"name": "job-1"}, map[string]any{"name": "job-2"}}}}}
	body := []byte(`{"status":{"members":[{"name":"job-2"}],"writeToken":"ours"}}`)
	for _, stored := range []bool{false, true} {
		w := Write{Base: base, Token: &Token{Path: []string{"status", "writeToken"}, Value: "ours", Stored: stored}}
		if err := w.FromMergePatch(body); err != nil {
			t.Fatal(err)
		}
		if w.Stamps != stored {
			t.Errorf("token stored %v: Stamps = %v, want %v", stored, w.Stamps, stored)
		}
	}
}
