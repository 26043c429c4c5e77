package apply

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

func decode(t *testing.T, s string) any {
	t.Helper()
	dec := json.NewDecoder(strings.NewReader(s))
	dec.UseNumber() // as the patcher decodes: exact numbers
	var v any
	if err := dec.Decode(&v); err != nil {
		t.Fatal(err)
	}
	return v
}

// An applied condition keeps the base's lastTransitionTime while its status
// is the base's, takes now on a transition, gets the base's generation, and
// is reported changed only when it differs from the base's.
func TestConditionsComplete(t *testing.T) {
	cs := Conditions{
		Keys:       map[string][]string{"status.conditions": {"type"}},
		Paths:      map[string]bool{"status.conditions": true},
		Generation: 3,
		Now:        "2026-01-02T03:04:05Z",
	}
	base := decode(t, `{"conditions":[
		{"type":"Ready","status":"True","reason":"Ok","message":"","lastTransitionTime":"2025-01-01T00:00:00Z","observedGeneration":3},
		{"type":"Synced","status":"False","reason":"Wait","message":"","lastTransitionTime":"2025-01-01T00:00:00Z"}]}`)
	status := decode(t, `{"conditions":[
		{"type":"Ready","status":"True","reason":"Ok","message":""},
		{"type":"Synced","status":"True","reason":"Done","message":""},
		{"type":"New","status":"Unknown","reason":"Start","message":""}]}`)
	var changed []ChangedCondition
	cs.Complete("status", status, base, &changed)
	want := decode(t, `{"conditions":[
		{"type":"Ready","status":"True","reason":"Ok","message":"","lastTransitionTime":"2025-01-01T00:00:00Z","observedGeneration":3},
		{"type":"Synced","status":"True","reason":"Done","message":"","lastTransitionTime":"2026-01-02T03:04:05Z","observedGeneration":3},
		{"type":"New","status":"Unknown","reason":"Start","message":"","lastTransitionTime":"2026-01-02T03:04:05Z","observedGeneration":3}]}`)
	got, _ := json.Marshal(status)
	wantJSON, _ := json.Marshal(want)
	if string(got) != string(wantJSON) {
		t.Errorf("completed status\n%s\nwant\n%s", got, wantJSON)
	}
	var types []string
	for _, c := range changed {
		if c.Dotted != "status.conditions" {
			t.Errorf("changed condition at %q", c.Dotted)
		}
		types = append(types, c.Cond["type"].(string))
	}
	if !reflect.DeepEqual(types, []string{"Synced", "New"}) {
		t.Errorf("changed conditions %v, want [Synced New]", types)
	}
}

// ConditionLists finds []metav1.Condition fields by JSON path, through
// pointers, embedded structs and lists, keyed by type.
func TestConditionLists(t *testing.T) {
	type inner struct {
		Conds []metav1.Condition `json:"conds,omitempty"`
	}
	type Embedded struct {
		Top []metav1.Condition `json:"top"`
	}
	type status struct {
		Embedded
		Conditions []metav1.Condition `json:"conditions"`
		Nested     *inner             `json:"nested,omitempty"`
		Items      []inner            `json:"items"`
		Skipped    []metav1.Condition `json:"-"`
	}
	out := map[string][]string{"status.conditions": {"kind"}}
	ConditionLists(reflect.TypeOf(&status{}), "status", out)
	want := map[string][]string{
		"status.conditions":   {"kind"}, // given keys are kept
		"status.top":          {"type"},
		"status.nested.conds": {"type"},
		"status.items.conds":  {"type"},
	}
	if !reflect.DeepEqual(out, want) {
		t.Errorf("ConditionLists = %v, want %v", out, want)
	}
}

func TestWithoutNulls(t *testing.T) {
	v := WithoutNulls(decode(t, `{"a":null,"b":[1,null,{"c":null,"d":2}],"e":{"f":null}}`))
	got, _ := json.Marshal(v)
	if string(got) != `{"b":[1,{"d":2}],"e":{}}` {
		t.Errorf("WithoutNulls = %s", got)
	}
}
