package guard

import (
	"strings"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

type guardConditions []metav1.Condition

type guardMember struct {
	Name       string             `json:"name"`
	Conditions []metav1.Condition `json:"conditions,omitempty"`
}

type guardInline struct {
	Inlined []metav1.Condition `json:"inlined,omitempty"`
}

type guardStatus struct {
	guardInline
	Phase      string                 `json:"phase,omitempty"`
	Conditions guardConditions        `json:"conditions,omitempty"`
	Members    []guardMember          `json:"members,omitempty"`
	ByName     map[string]guardMember `json:"byName,omitempty"`
	Lead       *guardMember           `json:"lead,omitempty"`
	Hidden     []metav1.Condition     `json:"-"`
}

func guardCondition(typ, reason string) metav1.Condition {
	return metav1.Condition{Type: typ, Status: metav1.ConditionTrue, Reason: reason, LastTransitionTime: metav1.NewTime(time.Unix(1700000000, 0))}
}

// The guard finds conditions at any depth, and judges only those the caller
// changed: a condition the base holds (the server's) is never judged, even
// when it moved to another item.
func TestInvalidConditionsAtAnyDepthOnlyChanged(t *testing.T) {
	stored := guardCondition("Stored", "not valid") // stored under an older, laxer schema
	base := guardStatus{
		Conditions: guardConditions{stored},
		Members:    []guardMember{{Name: "a", Conditions: []metav1.Condition{stored}}, {Name: "b"}},
	}
	cur := guardStatus{
		guardInline: guardInline{Inlined: []metav1.Condition{guardCondition("Inline", "bad reason")}},
		Phase:       "Running",
		Conditions:  guardConditions{stored, guardCondition("Ready", "Done")},
		Members:     []guardMember{{Name: "b", Conditions: []metav1.Condition{stored}}, {Name: "a", Conditions: []metav1.Condition{guardCondition("Synced", "bad:")}}},
		ByName:      map[string]guardMember{"x": {Conditions: []metav1.Condition{guardCondition("", "Done")}}},
		Lead:        &guardMember{Conditions: []metav1.Condition{guardCondition("Lead", "")}},
		Hidden:      []metav1.Condition{guardCondition("Hidden", "not marshalled")},
	}
	got := strings.Join(InvalidConditions(&cur, &base), "\n")
	for _, want := range []string{
		`status.inlined[0].reason: Invalid value: "bad reason"`,
		`status.members[1].conditions[0].reason: Invalid value: "bad:"`,
		`(condition type "Synced")`,
		`status.byName[x].conditions[0].type: Required value`,
		`status.lead.conditions[0].reason: Required value`,
	} {
		if !strings.Contains(got, want) {
			t.Errorf("missing %q in:\n%s", want, got)
		}
	}
	if strings.Contains(got, "Stored") || strings.Contains(got, "Hidden") || strings.Contains(got, "Ready") {
		t.Errorf("judged an unchanged, an unmarshalled or a valid condition:\n%s", got)
	}
	if n := len(strings.Split(got, "\n")); n != 4 {
		t.Errorf("%d problems, want 4:\n%s", n, got)
	}
	if p := InvalidConditions(&base, &base); p != nil {
		t.Errorf("an unchanged status: %q", p)
	}
	if p := InvalidConditions(&struct{ Phase string }{"x"}, &struct{ Phase string }{}); p != nil {
		t.Errorf("a status without conditions: %q", p)
	}
}

// A message's limit counts characters, as the schema's maxLength does.
func TestConditionMessageLimitCountsCharacters(t *testing.T) {
	c := guardCondition("Ready", "Done")
	c.Message = strings.Repeat("é", MaxConditionMessageLength)
	if p := ConditionProblems(&c, nil); len(p) != 0 {
		t.Fatalf("%d characters (%d bytes) refused: %q", MaxConditionMessageLength, len(c.Message), p)
	}
	c.Message += "é"
	if p := ConditionProblems(&c, nil); len(p) != 1 || !strings.Contains(p[0], "message: Too long") {
		t.Fatalf("one character over: %q", p)
	}
}
